import { InvalidJson } from './body.js';
import { answerJson, type Exchange, sendJson } from './exchange.js';
import { bearer, type ErrorReply, type ErrorSpec, INVALID_KEY, QUOTA_KEY, type Route } from './route.js';
import { answerStream, type StreamEvent } from './sse.js';
import {
  buildReply,
  contentText,
  countWords,
  isRecord,
  mockId,
  type PromptCount,
  type Reply,
  splitWords,
} from './text.js';

export const CLAUDE_MODELS = [
  { id: 'claude-sonnet-4-20250514', display_name: 'Claude Sonnet 4', created_at: '2025-05-22T00:00:00Z' },
  { id: 'claude-opus-4-20250514', display_name: 'Claude Opus 4', created_at: '2025-05-22T00:00:00Z' },
  { id: 'claude-3-5-haiku-20241022', display_name: 'Claude Haiku 3.5', created_at: '2024-10-22T00:00:00Z' },
] as const;

/** Anthropic's error type per status (https://docs.anthropic.com/en/api/errors). */
const CLAUDE_TYPES: Record<number, [string, string]> = {
  400: ['invalid_request_error', 'There was an issue with the format or content of your request.'],
  401: ['authentication_error', 'invalid x-api-key'],
  402: ['billing_error', 'There was an issue with your billing or payment information.'],
  403: ['permission_error', 'Your API key does not have permission to use the specified resource.'],
  404: ['not_found_error', 'The requested resource was not found.'],
  413: ['request_too_large', 'Request exceeds the maximum allowed number of bytes.'],
  429: ['rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit.'],
  500: ['api_error', 'Internal server error'],
  504: ['timeout_error', 'Request timed out'],
  529: ['overloaded_error', 'Overloaded'],
};

/** `{"type":"error","error":{"type","message"},"request_id"}` plus the `request-id` header. */
export function claudeError(spec: ErrorSpec): ErrorReply {
  const [type, message] = CLAUDE_TYPES[spec.status] ?? [spec.status >= 500 ? 'api_error' : 'invalid_request_error', ''];
  const requestId = mockId('req_');
  return {
    status: spec.status,
    body: {
      type: 'error',
      error: {
        type: spec.type ?? type,
        message: spec.message ?? (message || `Upstream failed with status ${spec.status}.`),
      },
      request_id: requestId,
    },
    headers: { 'request-id': requestId },
  };
}

/** `x-api-key` (or `Authorization: Bearer`, as OAuth clients send) and `anthropic-version` are both required. */
function claudeAuth(ex: Exchange): ErrorReply | null {
  const key = ex.headers['x-api-key'] ?? bearer(ex.headers);
  if (!key) return claudeError({ status: 401, message: 'x-api-key header is required' });
  if (key === INVALID_KEY) return claudeError({ status: 401, message: 'invalid x-api-key' });
  if (key === QUOTA_KEY) {
    // What Anthropic answers an account without credit: a 400, not a 429.
    return claudeError({
      status: 400,
      message:
        'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
    });
  }
  if (!ex.headers['anthropic-version']) {
    return claudeError({ status: 400, message: 'anthropic-version: header is required' });
  }
  return null;
}

function messagesCheck(ex: Exchange): ErrorReply | null {
  const auth = claudeAuth(ex);
  if (auth) return auth;
  if (ex.body instanceof InvalidJson || !isRecord(ex.body)) {
    return claudeError({ status: 400, message: 'The request body is not valid JSON.' });
  }
  for (const field of ['model', 'messages', 'max_tokens']) {
    if (ex.body[field] === undefined) return claudeError({ status: 400, message: `${field}: Field required` });
  }
  return null;
}

/** `system` (a string or text blocks) counts as one message when present. */
export function claudePromptCount(body: Record<string, unknown>): PromptCount {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  let words = messages.reduce<number>((sum, m) => sum + (isRecord(m) ? countWords(contentText(m.content)) : 0), 0);
  const system = contentText(body.system);
  words += countWords(system);
  return { words, messages: messages.length + (system ? 1 : 0) };
}

interface Block {
  full: Record<string, unknown>;
  start: Record<string, unknown>;
  deltas: Record<string, unknown>[];
}

function blocks(reply: Reply): Block[] {
  const list: Block[] = [];
  if (reply.reasoning) {
    const signature = 'mock-signature';
    list.push({
      full: { type: 'thinking', thinking: reply.reasoning, signature },
      start: { type: 'thinking', thinking: '', signature: '' },
      deltas: [
        ...splitWords(reply.reasoning).map((thinking) => ({ type: 'thinking_delta', thinking })),
        { type: 'signature_delta', signature },
      ],
    });
  }
  if (reply.text || !reply.toolCall) {
    list.push({
      full: { type: 'text', text: reply.text },
      start: { type: 'text', text: '' },
      deltas: splitWords(reply.text).map((text) => ({ type: 'text_delta', text })),
    });
  }
  if (reply.toolCall) {
    const id = mockId('toolu_');
    let input: unknown = {};
    try {
      input = JSON.parse(reply.toolCall.arguments);
    } catch {
      input = {};
    }
    list.push({
      full: { type: 'tool_use', id, name: reply.toolCall.name, input },
      start: { type: 'tool_use', id, name: reply.toolCall.name, input: {} },
      deltas: [{ type: 'input_json_delta', partial_json: reply.toolCall.arguments }],
    });
  }
  return list;
}

function claudeUsage(usage: NonNullable<Reply['usage']>, outputTokens: number): Record<string, unknown> {
  return {
    input_tokens: usage.prompt,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: usage.cached,
    output_tokens: outputTokens,
    service_tier: 'standard',
  };
}

async function messages(ex: Exchange): Promise<void> {
  const body = isRecord(ex.body) ? ex.body : {};
  const model = String(body.model);
  const reply = buildReply('claude', model, ex.behaviour, claudePromptCount(body));
  const id = mockId('msg_');
  const stopReason = reply.toolCall ? 'tool_use' : 'end_turn';
  const content = blocks(reply);
  const requestId = mockId('req_');
  const headers = { 'request-id': requestId };
  if (body.stream !== true) {
    await answerJson(
      ex,
      {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: content.map((b) => b.full),
        stop_reason: stopReason,
        stop_sequence: null,
        ...(reply.usage ? { usage: claudeUsage(reply.usage, reply.usage.completion) } : {}),
      },
      headers,
    );
    return;
  }
  // message_start carries the input side (and, as Anthropic does, a provisional output count of 1);
  // message_delta carries the final output count, which replaces it.
  const events: StreamEvent[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id,
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          ...(reply.usage ? { usage: claudeUsage(reply.usage, Math.min(1, reply.usage.completion)) } : {}),
        },
      },
    },
  ];
  content.forEach((block, index) => {
    events.push({
      event: 'content_block_start',
      data: { type: 'content_block_start', index, content_block: block.start },
    });
    if (index === 0) events.push({ event: 'ping', data: { type: 'ping' } });
    for (const delta of block.deltas) {
      events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta }, content: true });
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push({
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      ...(reply.usage ? { usage: { output_tokens: reply.usage.completion } } : {}),
    },
  });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  await answerStream(ex, events, { chunkDelayMs: reply.chunkDelayMs, headers });
}

async function models(ex: Exchange): Promise<void> {
  const entry = (m: (typeof CLAUDE_MODELS)[number]) => ({ type: 'model', ...m });
  const id = ex.params.model;
  if (id) {
    const found = CLAUDE_MODELS.find((m) => m.id === id);
    if (!found) {
      const error = claudeError({ status: 404, message: `model: ${id}` });
      sendJson(ex, error.status, error.body, error.headers);
      return;
    }
    await answerJson(ex, entry(found));
    return;
  }
  await answerJson(ex, {
    data: CLAUDE_MODELS.map(entry),
    has_more: false,
    first_id: CLAUDE_MODELS[0].id,
    last_id: CLAUDE_MODELS[CLAUDE_MODELS.length - 1].id,
  });
}

/** Anthropic shares `/v1/models` with OpenAI; its clients are recognised by their headers. */
function isAnthropicClient(headers: Record<string, string>): boolean {
  return headers['anthropic-version'] !== undefined || headers['x-api-key'] !== undefined;
}

export const claudeRoutes: Route[] = [
  {
    key: 'claude.messages',
    method: 'POST',
    match: (path) => (path === '/v1/messages' ? {} : null),
    error: claudeError,
    check: messagesCheck,
    handle: messages,
  },
  {
    key: 'claude.models',
    method: 'GET',
    match: (path, headers): Record<string, string> | null => {
      if (!isAnthropicClient(headers)) return null;
      if (path === '/v1/models') return {};
      const one = /^\/v1\/models\/([^/:]+)$/.exec(path);
      return one ? { model: decodeURIComponent(one[1]) } : null;
    },
    error: claudeError,
    check: claudeAuth,
    handle: models,
  },
];
