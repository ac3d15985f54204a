import type { ChatMessage, ChatResponse, UpstreamError, Usage } from '../../types.js';
import { readUpstreamError } from '../errors.js';
import { usageOf } from '../text-chat.js';
import type { CohereChatAnswer, CohereUsage } from './wire.js';

const FINISH: Record<string, string> = {
  COMPLETE: 'stop',
  STOP_SEQUENCE: 'stop',
  MAX_TOKENS: 'length',
  TOOL_CALL: 'tool_calls',
  // The generation was cut short: like a length stop, the answer is what came before.
  TIMEOUT: 'length',
  // v1's names, still seen from older deployments.
  ERROR_TOXIC: 'content_filter',
  ERROR_LIMIT: 'length',
  USER_CANCEL: 'stop',
};

/** Cohere's finish reason as OpenAI's; ERROR (and anything unknown) ends the choice as a plain stop. */
export function cohereFinishReason(reason: string | undefined): string {
  return (reason && FINISH[reason]) || 'stop';
}

/**
 * The usage that is billed. Cohere reports `tokens` (everything the model read, its own prompt template included)
 * and `billed_units` (what Cohere charges for); the gateway resells the upstream's price list, so it bills what
 * Cohere bills: billed_units, falling back to tokens only when an answer has no billed units. Null without either,
 * so the conveyor counts the tokens itself.
 */
export function cohereUsage(usage: CohereUsage | undefined): Usage | null {
  const counts = usage?.billed_units ?? usage?.tokens;
  if (!counts || (counts.input_tokens === undefined && counts.output_tokens === undefined)) return null;
  return usageOf(counts.input_tokens ?? 0, counts.output_tokens ?? 0);
}

export function fromCohereAnswer(json: Record<string, unknown>, model: string): ChatResponse {
  const answer = json as CohereChatAnswer;
  const parts = answer.message?.content ?? [];
  const text = parts.map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('');
  // The model's thinking and its plan before calling tools both read as reasoning in OpenAI's format.
  const reasoning = [
    ...parts.map((part) => (part.type === 'thinking' ? (part.thinking ?? '') : '')),
    answer.message?.tool_plan ?? '',
  ]
    .filter(Boolean)
    .join('\n');
  const calls = answer.message?.tool_calls ?? [];
  const message: ChatMessage = { role: 'assistant', content: text || (calls.length ? null : '') };
  if (reasoning) message.reasoning_content = reasoning;
  if (calls.length) {
    message.tool_calls = calls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.function?.name ?? '', arguments: call.function?.arguments ?? '{}' },
    }));
  }
  const response: ChatResponse = {
    id: answer.id ?? `chatcmpl-${Date.now()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, finish_reason: cohereFinishReason(answer.finish_reason) }],
  };
  const usage = cohereUsage(answer.usage);
  if (usage) response.usage = usage;
  return response;
}

/**
 * Cohere's error bodies are `{"message": "…"}` (sometimes with an `id`). 498 is Cohere's "invalid token", an
 * authentication failure like 401, so it is answered (and disables the channel) as one.
 */
export function cohereError(status: number, text: string): UpstreamError {
  const error = readUpstreamError(status === 498 ? 401 : status, text);
  return { ...error, type: error.type === 'upstream_error' ? 'cohere_error' : error.type };
}
