import type { ChatFunction } from '../provider.js';
import type { ChatResponse } from '../types.js';

/** The text of an OpenAI chat answer, counted when the upstream reports no usage. */
export function answerText(answer: { choices?: Array<{ message?: { content?: unknown } }> }): string {
  return (answer.choices ?? [])
    .map((choice) => (typeof choice.message?.content === 'string' ? choice.message.content : ''))
    .join('');
}

/**
 * A provider's answer read as a chat completion. A 2xx that is not one (a proxy's own JSON, an empty object) is no
 * answer to pass on: the conveyor turns the throw into a 502.
 */
export function chatAnswer(chat: ChatFunction, json: Record<string, unknown>, model: string): ChatResponse {
  const answer = chat.answer(json, model);
  if (!Array.isArray(answer.choices)) throw new Error('the upstream answer has no choices');
  return answer;
}
