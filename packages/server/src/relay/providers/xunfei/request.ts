import { messageText } from '../../formats/openai-chat/text-content.js';
import type { ChatRequest } from '../../types.js';

/** OpenAI chat → Spark's request frame: the app id in the header, sampling in `parameter.chat`, turns as text. */
export function toSparkFrame(request: ChatRequest, appId: string, domain: string): Record<string, unknown> {
  const chat: Record<string, unknown> = { domain };
  if (request.temperature !== undefined) chat.temperature = request.temperature;
  const maxTokens = request.max_tokens ?? request.max_completion_tokens;
  if (maxTokens !== undefined) chat.max_tokens = maxTokens;
  if (request.top_p !== undefined) chat.top_p = request.top_p;
  const header: Record<string, unknown> = { app_id: appId };
  if (typeof request.user === 'string') header.uid = request.user.slice(0, 32);
  return {
    header,
    parameter: { chat },
    payload: {
      message: {
        text: request.messages.map((message) => ({
          role: message.role === 'developer' ? 'system' : message.role,
          content: messageText(message),
        })),
      },
    },
  };
}
