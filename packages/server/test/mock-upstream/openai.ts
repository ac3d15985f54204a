import { InvalidJson } from './body.js';
import { answerJson, type Exchange } from './exchange.js';
import { bearer, type ErrorReply, type ErrorSpec, exact, INVALID_KEY, QUOTA_KEY, type Route } from './route.js';
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
  unixNow,
} from './text.js';

/** OpenAI's usual wording per status, used when a `status` behaviour gives no message of its own. */
const OPENAI_DEFAULTS: Record<number, { message: string; type: string; code: string | null }> = {
  400: { message: 'Invalid request.', type: 'invalid_request_error', code: null },
  401: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' },
  403: {
    message: 'Country, region, or territory not supported',
    type: 'request_forbidden',
    code: 'unsupported_country_region_territory',
  },
  404: { message: 'The requested resource was not found.', type: 'invalid_request_error', code: null },
  429: {
    message: 'Rate limit reached for requests. Please try again later.',
    type: 'requests',
    code: 'rate_limit_exceeded',
  },
  500: {
    message: 'The server had an error while processing your request. Sorry about that!',
    type: 'server_error',
    code: null,
  },
  503: { message: 'The engine is currently overloaded, please try again later.', type: 'server_error', code: null },
};

/** `{"error":{"message","type","param","code"}}`: the body every OpenAI endpoint fails with. */
export function openaiError(spec: ErrorSpec): ErrorReply {
  const fallback = OPENAI_DEFAULTS[spec.status] ?? {
    message: `Upstream failed with status ${spec.status}.`,
    type: spec.status >= 500 ? 'server_error' : 'invalid_request_error',
    code: null,
  };
  return {
    status: spec.status,
    body: {
      error: {
        message: spec.message ?? fallback.message,
        type: spec.type ?? fallback.type,
        param: spec.param ?? null,
        code: spec.code === undefined ? fallback.code : spec.code,
      },
    },
    headers: { 'x-request-id': mockId('req_') },
  };
}

/** Bearer auth as OpenAI (and the OpenAI-compatible providers) check it, with the two magic test keys. */
export function openaiAuth(ex: Exchange): ErrorReply | null {
  const key = bearer(ex.headers);
  if (!key) {
    return openaiError({
      status: 401,
      message:
        "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
      code: null,
    });
  }
  if (key === INVALID_KEY) {
    return openaiError({
      status: 401,
      message: `Incorrect API key provided: ${key}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      code: 'invalid_api_key',
    });
  }
  if (key === QUOTA_KEY) {
    return openaiError({
      status: 429,
      message: 'You exceeded your current quota, please check your plan and billing details.',
      type: 'insufficient_quota',
      code: 'insufficient_quota',
    });
  }
  return null;
}

/** Auth, then a JSON object body with the required fields, as OpenAI validates before doing any work. */
export function openaiJsonCheck(ex: Exchange, required: string[]): ErrorReply | null {
  const auth = openaiAuth(ex);
  if (auth) return auth;
  if (ex.body instanceof InvalidJson || !isRecord(ex.body)) {
    return openaiError({
      status: 400,
      message:
        "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)",
    });
  }
  for (const field of required) {
    if (ex.body[field] === undefined || ex.body[field] === null) {
      return openaiError({
        status: 400,
        message: field === 'model' ? 'you must provide a model parameter' : `Missing required parameter: '${field}'.`,
        param: field,
        code: field === 'model' ? null : 'missing_required_parameter',
      });
    }
  }
  return null;
}

export function jsonBody(ex: Exchange): Record<string, unknown> {
  return isRecord(ex.body) ? ex.body : {};
}

export function openaiUsage(usage: NonNullable<Reply['usage']>): Record<string, unknown> {
  return {
    prompt_tokens: usage.prompt,
    completion_tokens: usage.completion,
    total_tokens: usage.prompt + usage.completion,
    prompt_tokens_details: { cached_tokens: usage.cached, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoning,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

export function chatPromptCount(messages: unknown): PromptCount {
  const list = Array.isArray(messages) ? messages : [];
  const words = list.reduce<number>(
    (sum, message) => sum + (isRecord(message) ? countWords(contentText(message.content)) : 0),
    0,
  );
  return { words, messages: list.length };
}

/** Azure adds content-filter annotations to every chat answer; OpenAI does not. */
const SAFE_FILTER = {
  hate: { filtered: false, severity: 'safe' },
  self_harm: { filtered: false, severity: 'safe' },
  sexual: { filtered: false, severity: 'safe' },
  violence: { filtered: false, severity: 'safe' },
};

export interface ChatFlavour {
  provider: string;
  azure: boolean;
}

/** Chat Completions, shared by OpenAI, Ollama's OpenAI-compatible endpoint and Azure (the same body). */
export async function chatCompletions(ex: Exchange, flavour: ChatFlavour, model: string): Promise<void> {
  const body = jsonBody(ex);
  const reply = buildReply(flavour.provider, model, ex.behaviour, chatPromptCount(body.messages));
  const id = mockId('chatcmpl-');
  const created = unixNow();
  const toolCallId = mockId('call_');
  const finishReason = reply.toolCall ? 'tool_calls' : 'stop';
  const headers = { 'x-request-id': mockId('req_') };
  const filters = flavour.azure ? { content_filter_results: SAFE_FILTER } : {};

  if (body.stream !== true) {
    const message: Record<string, unknown> = {
      role: 'assistant',
      content: reply.toolCall && !reply.text ? null : reply.text,
      refusal: null,
    };
    if (reply.reasoning) message.reasoning_content = reply.reasoning;
    if (reply.toolCall) {
      message.tool_calls = [
        {
          id: toolCallId,
          type: 'function',
          function: { name: reply.toolCall.name, arguments: reply.toolCall.arguments },
        },
      ];
    }
    await answerJson(
      ex,
      {
        id,
        object: 'chat.completion',
        created,
        model,
        ...(flavour.azure
          ? { prompt_filter_results: [{ prompt_index: 0, content_filter_results: SAFE_FILTER }] }
          : { system_fingerprint: 'fp_mock' }),
        choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason, ...filters }],
        ...(reply.usage ? { usage: openaiUsage(reply.usage) } : {}),
      },
      headers,
    );
    return;
  }

  const streamOptions = isRecord(body.stream_options) ? body.stream_options : {};
  const includeUsage = streamOptions.include_usage === true && reply.usage !== null;
  // With include_usage every chunk carries `usage: null` and one extra chunk with `choices: []` carries the totals.
  const base = { id, object: 'chat.completion.chunk', created, model, system_fingerprint: 'fp_mock' };
  const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish, ...extra }],
    ...(includeUsage ? { usage: null } : {}),
  });
  const events: StreamEvent[] = [];
  if (flavour.azure) {
    // Azure opens with a filter-only record that has no choices and empty ids.
    events.push({
      data: {
        choices: [],
        created: 0,
        id: '',
        model: '',
        object: '',
        prompt_filter_results: [{ prompt_index: 0, content_filter_results: SAFE_FILTER }],
      },
    });
  }
  events.push({ data: chunk({ role: 'assistant', content: '', refusal: null }, null) });
  for (const piece of splitWords(reply.reasoning ?? '')) {
    events.push({ data: chunk({ reasoning_content: piece }, null), content: true });
  }
  const words = splitWords(reply.text);
  words.forEach((piece, index) => {
    const last = index === words.length - 1 && !reply.toolCall;
    events.push({ data: chunk({ content: piece }, last ? 'stop' : null, filters), content: true });
  });
  if (reply.toolCall) {
    events.push({
      data: chunk(
        {
          tool_calls: [
            { index: 0, id: toolCallId, type: 'function', function: { name: reply.toolCall.name, arguments: '' } },
          ],
        },
        null,
      ),
      content: true,
    });
    events.push({
      data: chunk({ tool_calls: [{ index: 0, function: { arguments: reply.toolCall.arguments } }] }, null),
      content: true,
    });
  }
  if (reply.toolCall || words.length === 0) events.push({ data: chunk({}, finishReason) });
  if (includeUsage && reply.usage) {
    events.push({ data: { ...base, choices: [], usage: openaiUsage(reply.usage) } });
  }
  events.push({ data: '[DONE]' });
  await answerStream(ex, events, { chunkDelayMs: reply.chunkDelayMs, headers });
}

/** Legacy `/v1/completions`: `prompt` is a string or a list of strings, each counted as one message. */
async function completions(ex: Exchange): Promise<void> {
  const body = jsonBody(ex);
  const model = String(body.model);
  const prompts = Array.isArray(body.prompt) ? body.prompt : [body.prompt ?? ''];
  const words = prompts.reduce<number>((sum, p) => sum + countWords(typeof p === 'string' ? p : ''), 0);
  const reply = buildReply('openai', model, ex.behaviour, { words, messages: prompts.length });
  const id = mockId('cmpl-');
  const created = unixNow();
  const headers = { 'x-request-id': mockId('req_') };
  if (body.stream !== true) {
    await answerJson(
      ex,
      {
        id,
        object: 'text_completion',
        created,
        model,
        choices: [{ text: reply.text, index: 0, logprobs: null, finish_reason: 'stop' }],
        ...(reply.usage ? { usage: openaiUsage(reply.usage) } : {}),
      },
      headers,
    );
    return;
  }
  const streamOptions = isRecord(body.stream_options) ? body.stream_options : {};
  const includeUsage = streamOptions.include_usage === true && reply.usage !== null;
  const base = { id, object: 'text_completion', created, model };
  const words2 = splitWords(reply.text);
  const events: StreamEvent[] = words2.map((piece, index) => ({
    data: {
      ...base,
      choices: [{ text: piece, index: 0, logprobs: null, finish_reason: index === words2.length - 1 ? 'stop' : null }],
      ...(includeUsage ? { usage: null } : {}),
    },
    content: true,
  }));
  if (words2.length === 0) {
    events.push({ data: { ...base, choices: [{ text: '', index: 0, logprobs: null, finish_reason: 'stop' }] } });
  }
  if (includeUsage && reply.usage) events.push({ data: { ...base, choices: [], usage: openaiUsage(reply.usage) } });
  events.push({ data: '[DONE]' });
  await answerStream(ex, events, { chunkDelayMs: reply.chunkDelayMs, headers });
}

export const openaiTextRoutes: Route[] = [
  {
    key: 'openai.chat',
    method: 'POST',
    // Ollama serves the same OpenAI-compatible endpoint, so one route answers both.
    match: exact('/v1/chat/completions'),
    error: openaiError,
    check: (ex) => openaiJsonCheck(ex, ['model', 'messages']),
    handle: (ex) => chatCompletions(ex, { provider: 'openai', azure: false }, String(jsonBody(ex).model)),
  },
  {
    key: 'openai.completions',
    method: 'POST',
    match: exact('/v1/completions'),
    error: openaiError,
    check: (ex) => openaiJsonCheck(ex, ['model', 'prompt']),
    handle: completions,
  },
];
