import type { MessageCode } from '@gateway/shared';

/**
 * A request that the chosen channel's format cannot express (a Claude server tool sent to an OpenAI-format channel,
 * a tool result image for a format without one). Converters throw it instead of dropping the part silently; the
 * conveyor then tries a channel that can serve the request as it is, and answers 400 naming the part if none can.
 */
export class ConversionError extends Error {
  /**
   * @param words the refusal in words of its own, for requests that are not chat (a video model that cannot make
   *   the asked duration): the message key and its values, answered 400 when no channel can serve.
   */
  constructor(
    readonly what: string,
    readonly words?: { code: MessageCode; params: Record<string, string | number> },
  ) {
    super(`cannot convert ${what}`);
  }
}
