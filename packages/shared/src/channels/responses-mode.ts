/**
 * How a channel whose provider serves OpenAI's Responses API natively is reached for `/v1/responses`, kept in the
 * channel's `setting` JSON as `responses_mode`:
 * - `auto` (the default): natively, until the upstream answers 404 or 405 there (vLLM, Ollama and older gateways
 *   behind an OpenAI row serve only chat completions); the channel then goes through the chat conversion for an
 *   hour, the failed request included, and is tried natively again after;
 * - `native`: always natively (a 404 is the upstream's answer);
 * - `chat`: always through chat completions.
 */
export const RESPONSES_MODES = ['auto', 'native', 'chat'] as const;
export type ResponsesMode = (typeof RESPONSES_MODES)[number];

export function responsesModeOf(setting: Record<string, unknown> | null | undefined): ResponsesMode {
  const mode = setting?.responses_mode;
  return mode === 'native' || mode === 'chat' ? mode : 'auto';
}
