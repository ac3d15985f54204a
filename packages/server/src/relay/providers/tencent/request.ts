import { messageText } from '../../formats/openai-chat/text-content.js';
import type { ChatRequest } from '../../types.js';

/** OpenAI chat → Hunyuan ChatCompletions (2023-09-01): capitalised fields, text content. */
export function toHunyuanRequest(request: ChatRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    Model: request.model,
    Messages: request.messages.map((message) => ({
      Role: message.role === 'developer' ? 'system' : message.role,
      Content: messageText(message),
    })),
    Stream: request.stream === true,
  };
  if (request.temperature !== undefined) body.Temperature = request.temperature;
  if (request.top_p !== undefined) body.TopP = request.top_p;
  return body;
}
