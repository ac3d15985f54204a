import type { ResponsesRequest, ResponsesTool, ResponsesUsage } from './responses-wire.js';

// The Response object's envelope, the one place the gateway builds it for an answer it converted (from chat, and so
// from Claude, Gemini and every chat provider): the whole answer and the response.created / in_progress / completed
// events all come from here. It carries every field the published schema requires, repeats what the request set,
// and where the request left a field out says what the API reports then (its documented default), or null.

/** What a request left out reads back as the API's default for it. */
const DEFAULTS = {
  temperature: 1,
  top_p: 1,
  presence_penalty: 0,
  frequency_penalty: 0,
  top_logprobs: 0,
  truncation: 'disabled',
  parallel_tool_calls: true,
  tool_choice: 'auto',
  store: true,
  background: false,
  service_tier: 'default',
} as const;

/** A function tool as the Response lists it: description, parameters and strict always present (null if unset). */
function declaredTool(tool: ResponsesTool): ResponsesTool {
  if (tool.type !== 'function') return tool;
  const fn = tool as Extract<ResponsesTool, { type: 'function' }>;
  return { ...fn, description: fn.description ?? null, parameters: fn.parameters ?? null, strict: fn.strict ?? null };
}

/** The text configuration as used: plain text unless the request asked for a format. */
function textConfig(text: ResponsesRequest['text']): Record<string, unknown> {
  const format = text?.format;
  if (!format) return { ...text, format: { type: 'text' } };
  if (format.type !== 'json_schema') return { ...text, format };
  return { ...text, format: { ...format, description: format.description ?? null, strict: format.strict ?? false } };
}

function reasoningConfig(reasoning: ResponsesRequest['reasoning']): Record<string, unknown> | null {
  if (!reasoning) return null;
  return { ...reasoning, effort: reasoning.effort ?? null, summary: reasoning.summary ?? null };
}

export interface ResponseFrame {
  id: string;
  /** The model the client asked for. */
  model: string;
  /** Unix seconds. */
  createdAt: number;
  status: string;
  output: unknown[];
  usage: ResponsesUsage | null;
  /** The chat finish reason: `length` makes a finished response incomplete. */
  finish?: string | null;
}

/** The Response object for a request at one moment: the frame (status, output, usage) in the request's envelope. */
export function responseObject(request: ResponsesRequest, frame: ResponseFrame): Record<string, unknown> {
  const incomplete = frame.finish === 'length';
  const status = incomplete && frame.status === 'completed' ? 'incomplete' : frame.status;
  return {
    id: frame.id,
    object: 'response',
    created_at: frame.createdAt,
    completed_at: status === 'completed' ? Math.max(frame.createdAt, Math.floor(Date.now() / 1000)) : null,
    status,
    incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
    error: null,
    model: frame.model,
    previous_response_id: request.previous_response_id ?? null,
    instructions: request.instructions ?? null,
    output: frame.output,
    tools: (request.tools ?? []).map(declaredTool),
    tool_choice: request.tool_choice ?? DEFAULTS.tool_choice,
    parallel_tool_calls: request.parallel_tool_calls ?? DEFAULTS.parallel_tool_calls,
    truncation: request.truncation ?? DEFAULTS.truncation,
    text: textConfig(request.text),
    reasoning: reasoningConfig(request.reasoning),
    temperature: request.temperature ?? DEFAULTS.temperature,
    top_p: request.top_p ?? DEFAULTS.top_p,
    presence_penalty: request.presence_penalty ?? DEFAULTS.presence_penalty,
    frequency_penalty: request.frequency_penalty ?? DEFAULTS.frequency_penalty,
    top_logprobs: request.top_logprobs ?? DEFAULTS.top_logprobs,
    max_output_tokens: request.max_output_tokens ?? null,
    max_tool_calls: request.max_tool_calls ?? null,
    store: request.store ?? DEFAULTS.store,
    background: request.background ?? DEFAULTS.background,
    service_tier: request.service_tier ?? DEFAULTS.service_tier,
    metadata: request.metadata ?? {},
    user: request.user ?? null,
    safety_identifier: request.safety_identifier ?? null,
    prompt_cache_key: request.prompt_cache_key ?? null,
    prompt_cache_retention: request.prompt_cache_retention ?? null,
    usage: frame.usage,
  };
}
