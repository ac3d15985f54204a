import type { ResponsesItem, ResponsesRequest } from '../../formats/responses/responses-wire.js';

/**
 * Fields the Codex backend refuses ("Unsupported parameter"): sampling and output limits are fixed by the
 * subscription, and it keeps no per-user metadata.
 */
const REFUSED_FIELDS = [
  'max_output_tokens',
  'temperature',
  'top_p',
  'frequency_penalty',
  'presence_penalty',
  'user',
  'metadata',
  'safety_identifier',
  'prompt_cache_retention',
  'stream_options',
] as const;

/** A message's text content as the list of parts Codex CLI sends (the backend takes input in that form). */
function listed(item: ResponsesItem): ResponsesItem {
  const message = item as { type?: string; role?: string; content?: unknown };
  if ((message.type ?? 'message') !== 'message' || typeof message.content !== 'string') return item;
  const type = message.role === 'assistant' ? 'output_text' : 'input_text';
  return { ...message, type: 'message', content: [{ type, text: message.content }] } as ResponsesItem;
}

/**
 * A Responses body as the Codex backend takes it (family): always streamed and never stored, `instructions` present
 * (empty when the client gave none, as Codex CLI sends it), the input a list of items with listed content, the
 * refused fields removed.
 */
export function toCodexBody(request: ResponsesRequest): ResponsesRequest {
  const input =
    typeof request.input === 'string'
      ? [listed({ type: 'message', role: 'user', content: request.input })]
      : request.input?.map(listed);
  const body: Record<string, unknown> = {
    ...request,
    ...(input ? { input } : {}),
    instructions: request.instructions ?? '',
    stream: true,
    store: false,
  };
  for (const field of REFUSED_FIELDS) delete body[field];
  return body as ResponsesRequest;
}
