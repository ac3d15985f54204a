import { messageText } from '../../formats/openai-chat/text-content.js';
import type { ChatRequest } from '../../types.js';

const clamp = (value: number | undefined, low: number, high: number) =>
  value === undefined ? undefined : Math.min(high, Math.max(low, value));

/**
 * OpenAI chat → Zhipu's legacy `prompt` body. The legacy models know only user and assistant turns, so a system
 * message goes as a user turn; temperature and top_p must lie in [0, 1]. Streams are incremental (each `add` event
 * carries only the new text).
 */
export function toZhipuRequest(request: ChatRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    prompt: request.messages.map((message) => ({
      role: message.role === 'assistant' ? 'assistant' : 'user',
      content: messageText(message),
    })),
  };
  const temperature = clamp(request.temperature, 0, 1);
  const topP = clamp(request.top_p, 0, 1);
  if (temperature !== undefined) body.temperature = temperature;
  if (topP !== undefined) body.top_p = topP;
  if (request.stream) body.incremental = true;
  return body;
}
