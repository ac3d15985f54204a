import { messageText } from '../../formats/openai-chat/text-content.js';
import type { ChatRequest, RuntimeChannel, UpstreamCall } from '../../types.js';
import { joinUrl } from '../task-call.js';

/** A language model's prediction input: the common fields of Replicate's chat models (Llama, Mistral, Granite…). */
export interface ReplicateInput {
  prompt: string;
  system_prompt?: string;
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  stop_sequences?: string;
}

const LABELS: Record<string, string> = { assistant: 'Assistant', user: 'User' };

/**
 * OpenAI chat → a prediction input. A model on Replicate takes one prompt (its own template wraps it): system
 * messages become `system_prompt`, a lone user turn is the prompt as it is, and a longer conversation is written
 * out as `User:` / `Assistant:` paragraphs. Only text goes: images in the chat are not sent.
 */
export function toReplicateInput(request: ChatRequest): ReplicateInput {
  const system = request.messages.filter((message) => message.role === 'system' || message.role === 'developer');
  const turns = request.messages.filter((message) => !system.includes(message));
  const prompt =
    turns.length === 1
      ? messageText(turns[0]!)
      : turns.map((message) => `${LABELS[message.role] ?? 'User'}: ${messageText(message)}`).join('\n\n');
  const input: ReplicateInput = { prompt };
  if (system.length > 0) input.system_prompt = system.map(messageText).join('\n');
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  if (typeof maxTokens === 'number') input.max_tokens = maxTokens;
  if (typeof request.temperature === 'number') input.temperature = request.temperature;
  if (typeof request.top_p === 'number') input.top_p = request.top_p;
  const stop = typeof request.stop === 'string' ? [request.stop] : (request.stop ?? []);
  if (stop.length > 0) input.stop_sequences = stop.join(',');
  return input;
}

/**
 * The prediction endpoint of a model name: `owner/name` runs the model's latest version
 * (`/v1/models/{owner}/{name}/predictions`); `owner/name:version` pins a version (`/v1/predictions`).
 */
export function predictionTarget(model: string): { path: string; version?: string } {
  const [name = '', version] = model.split(':');
  if (version) return { path: '/v1/predictions', version };
  const path = name.split('/').map(encodeURIComponent).join('/');
  return { path: `/v1/models/${path}/predictions` };
}

/** The call that creates a prediction of `model` with `input`, waiting for it (`Prefer: wait`) unless streamed. */
export function predictionCall(
  channel: RuntimeChannel,
  model: string,
  input: Record<string, unknown>,
  stream = false,
): UpstreamCall {
  const target = predictionTarget(model);
  const body: Record<string, unknown> = { ...(target.version ? { version: target.version } : {}), input };
  if (stream) body.stream = true;
  return {
    method: 'POST',
    url: joinUrl(channel.baseUrl || 'https://api.replicate.com', target.path),
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      authorization: `Bearer ${channel.key}`,
      prefer: 'wait',
    },
    body: JSON.stringify(body),
  };
}
