/**
 * A request that the chosen channel's format cannot express (a Claude server tool sent to an OpenAI-format channel,
 * a tool result image for a format without one). Converters throw it instead of dropping the part silently; the
 * conveyor then tries a channel that can serve the request as it is, and answers 400 naming the part if none can.
 */
export class ConversionError extends Error {
  constructor(readonly what: string) {
    super(`cannot convert ${what}`);
  }
}
