import type { ChatRequest } from '../types.js';

/**
 * A channel's `setting.system_prompt` is added when the request has no system message; with
 * `system_prompt_override` it is also put in front of an existing one (family behaviour).
 */
export function withSystemPrompt(request: ChatRequest, setting: Record<string, unknown> | null): ChatRequest {
  const prompt = typeof setting?.system_prompt === 'string' ? setting.system_prompt : '';
  if (!prompt) return request;
  const index = request.messages.findIndex((message) => message.role === 'system');
  if (index === -1) return { ...request, messages: [{ role: 'system', content: prompt }, ...request.messages] };
  if (setting?.system_prompt_override !== true) return request;
  const messages = [...request.messages];
  const existing = messages[index]!;
  messages[index] = {
    ...existing,
    content: `${prompt}\n${typeof existing.content === 'string' ? existing.content : ''}`,
  };
  return { ...request, messages };
}
