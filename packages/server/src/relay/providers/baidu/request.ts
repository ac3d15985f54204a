import { messageText } from '../../formats/openai-chat/text-content.js';
import type { ChatRequest } from '../../types.js';

/** OpenAI chat → ERNIE chat: system text goes in `system`, the conversation in `messages`. */
export function toBaiduRequest(request: ChatRequest): Record<string, unknown> {
  const system = request.messages
    .filter((message) => message.role === 'system' || message.role === 'developer')
    .map(messageText)
    .join('\n');
  const body: Record<string, unknown> = {
    messages: request.messages
      .filter((message) => message.role !== 'system' && message.role !== 'developer')
      .map((message) => ({ role: message.role === 'assistant' ? 'assistant' : 'user', content: messageText(message) })),
  };
  if (system) body.system = system;
  if (request.stream) body.stream = true;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.top_p !== undefined) body.top_p = request.top_p;
  const maxTokens = request.max_tokens ?? request.max_completion_tokens;
  if (maxTokens !== undefined) body.max_output_tokens = maxTokens;
  if (request.stop !== undefined) body.stop = Array.isArray(request.stop) ? request.stop : [request.stop];
  if (typeof request.user === 'string') body.user_id = request.user;
  return body;
}

/** OpenAI embeddings → ERNIE embeddings: `input` is always a list of strings. */
export function toBaiduEmbeddings(body: string | Buffer): Record<string, unknown> {
  const request = JSON.parse(body.toString()) as { input?: unknown; user?: unknown };
  const input = Array.isArray(request.input) ? request.input.map(String) : [String(request.input ?? '')];
  return typeof request.user === 'string' ? { input, user_id: request.user } : { input };
}
