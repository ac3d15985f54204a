import { InvalidJson } from './body.js';
import { answerJson, type Exchange, sendJson } from './exchange.js';
import { type ErrorReply, type ErrorSpec, INVALID_KEY, QUOTA_KEY, type Route } from './route.js';
import { answerStream, type StreamEvent } from './sse.js';
import {
  buildReply,
  contentText,
  countWords,
  embeddingFor,
  isRecord,
  mockId,
  type PromptCount,
  type Reply,
  splitWords,
} from './text.js';

export const GEMINI_MODELS = [
  {
    name: 'models/gemini-2.0-flash',
    version: '2.0',
    displayName: 'Gemini 2.0 Flash',
    description: 'Gemini 2.0 Flash',
    inputTokenLimit: 1048576,
    outputTokenLimit: 8192,
    supportedGenerationMethods: ['generateContent', 'countTokens'],
  },
  {
    name: 'models/gemini-2.5-pro',
    version: '2.5',
    displayName: 'Gemini 2.5 Pro',
    description: 'Gemini 2.5 Pro',
    inputTokenLimit: 1048576,
    outputTokenLimit: 65536,
    supportedGenerationMethods: ['generateContent', 'countTokens'],
  },
  {
    name: 'models/text-embedding-004',
    version: '004',
    displayName: 'Text Embedding 004',
    description: 'Obtain a distributed representation of a text.',
    inputTokenLimit: 2048,
    outputTokenLimit: 1,
    supportedGenerationMethods: ['embedContent'],
  },
] as const;

/** google.rpc status names per HTTP status. */
const GEMINI_STATUS: Record<number, [string, string]> = {
  400: ['INVALID_ARGUMENT', 'Request contains an invalid argument.'],
  401: ['UNAUTHENTICATED', 'Request had invalid authentication credentials.'],
  403: ['PERMISSION_DENIED', 'The caller does not have permission'],
  404: ['NOT_FOUND', 'Requested entity was not found.'],
  429: ['RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).'],
  500: [
    'INTERNAL',
    'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
  ],
  503: ['UNAVAILABLE', 'The model is overloaded. Please try again later.'],
  504: ['DEADLINE_EXCEEDED', 'The request timed out. Please try again.'],
};

/** `{"error":{"code","message","status"}}`; a `status` behaviour's `type` becomes the rpc status name. */
export function geminiError(spec: ErrorSpec & { details?: unknown[] }): ErrorReply {
  const [status, message] = GEMINI_STATUS[spec.status] ?? [spec.status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION', ''];
  return {
    status: spec.status,
    body: {
      error: {
        code: spec.status,
        message: spec.message ?? (message || `Upstream failed with status ${spec.status}.`),
        status: spec.type ?? status,
        ...(spec.details ? { details: spec.details } : {}),
      },
    },
  };
}

/** Key from `?key=` or `x-goog-api-key`: missing → 403, `invalid-key` → 400 API_KEY_INVALID, `quota-key` → 429. */
function geminiAuth(ex: Exchange): ErrorReply | null {
  const key = ex.query.key ?? ex.headers['x-goog-api-key'];
  if (!key) {
    return geminiError({
      status: 403,
      message:
        "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
    });
  }
  if (key === INVALID_KEY) {
    return geminiError({
      status: 400,
      message: 'API key not valid. Please pass a valid API key.',
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'API_KEY_INVALID',
          domain: 'googleapis.com',
          metadata: { service: 'generativelanguage.googleapis.com' },
        },
      ],
    });
  }
  if (key === QUOTA_KEY) {
    return geminiError({
      status: 429,
      message:
        'You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.',
    });
  }
  return null;
}

function bodyCheck(ex: Exchange, field: string): ErrorReply | null {
  const auth = geminiAuth(ex);
  if (auth) return auth;
  if (ex.body instanceof InvalidJson || !isRecord(ex.body)) {
    return geminiError({ status: 400, message: 'Invalid JSON payload received.' });
  }
  if (ex.body[field] === undefined) {
    return geminiError({ status: 400, message: `* GenerateContentRequest.${field}: ${field} is not specified\n` });
  }
  return null;
}

/** Words of every text part in `contents` and `systemInstruction` (which counts as one more message). */
export function geminiPromptCount(body: Record<string, unknown>): PromptCount {
  const contents = Array.isArray(body.contents) ? body.contents : [];
  const partsText = (content: unknown) => (isRecord(content) ? contentText(content.parts) : '');
  let words = contents.reduce<number>((sum, c) => sum + countWords(partsText(c)), 0);
  const system = partsText(body.systemInstruction ?? body.system_instruction);
  words += countWords(system);
  return { words, messages: contents.length + (system ? 1 : 0) };
}

/** Gemini splits output: candidatesTokenCount excludes thoughts, totalTokenCount includes them. */
function usageMetadata(usage: NonNullable<Reply['usage']>): Record<string, unknown> {
  const thoughts = usage.reasoning;
  return {
    promptTokenCount: usage.prompt,
    candidatesTokenCount: Math.max(0, usage.completion - thoughts),
    totalTokenCount: usage.prompt + usage.completion,
    ...(usage.cached ? { cachedContentTokenCount: usage.cached } : {}),
    ...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: usage.prompt }],
  };
}

function parseArgs(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

async function generate(ex: Exchange, stream: boolean): Promise<void> {
  const body = isRecord(ex.body) ? ex.body : {};
  const model = ex.params.model;
  const reply = buildReply('gemini', model, ex.behaviour, geminiPromptCount(body));
  const responseId = mockId('gemini-');
  const envelope = (parts: unknown[], last: boolean) => ({
    candidates: [
      {
        content: { parts, role: 'model' },
        ...(last ? { finishReason: 'STOP' } : {}),
        index: 0,
      },
    ],
    ...(last && reply.usage ? { usageMetadata: usageMetadata(reply.usage) } : {}),
    modelVersion: model,
    responseId,
  });
  const toolPart = reply.toolCall
    ? { functionCall: { name: reply.toolCall.name, args: parseArgs(reply.toolCall.arguments) } }
    : undefined;

  if (!stream) {
    const parts: unknown[] = [];
    if (reply.reasoning) parts.push({ text: reply.reasoning, thought: true });
    if (reply.text || !toolPart) parts.push({ text: reply.text });
    if (toolPart) parts.push(toolPart);
    await answerJson(ex, envelope(parts, true));
    return;
  }
  const pieces: unknown[] = [
    ...splitWords(reply.reasoning ?? '').map((text) => ({ text, thought: true })),
    ...splitWords(reply.text).map((text) => ({ text })),
    ...(toolPart ? [toolPart] : []),
  ];
  if (pieces.length === 0) pieces.push({ text: '' });
  // finishReason and usageMetadata ride on the last chunk; Gemini has no end marker, the stream just ends.
  const events: StreamEvent[] = pieces.map((part, index) => ({
    data: envelope([part], index === pieces.length - 1),
    content: true,
  }));
  const sse = ex.query.alt === 'sse';
  await answerStream(ex, events, { framing: sse ? 'sse' : 'json-array', chunkDelayMs: reply.chunkDelayMs });
}

/** `:embedContent` → `{embedding:{values}}`; `:batchEmbedContents` → `{embeddings:[{values}]}`. */
async function embed(ex: Exchange): Promise<void> {
  const body = isRecord(ex.body) ? ex.body : {};
  const textOf = (request: unknown) =>
    isRecord(request) && isRecord(request.content) ? contentText(request.content.parts) : '';
  if (ex.params.action === 'batchEmbedContents') {
    const requests = Array.isArray(body.requests) ? body.requests : [];
    await answerJson(ex, { embeddings: requests.map((r) => ({ values: embeddingFor(textOf(r)) })) });
    return;
  }
  await answerJson(ex, { embedding: { values: embeddingFor(textOf(body)) } });
}

async function models(ex: Exchange): Promise<void> {
  const id = ex.params.model;
  if (id) {
    const found = GEMINI_MODELS.find((m) => m.name === `models/${id}`);
    if (!found) {
      const error = geminiError({ status: 404, message: `models/${id} is not found for API version v1beta.` });
      sendJson(ex, error.status, error.body, error.headers);
      return;
    }
    await answerJson(ex, found);
    return;
  }
  await answerJson(ex, { models: GEMINI_MODELS });
}

const ACTION = /^\/(v1|v1beta|v1alpha)\/models\/([^/:]+):(\w+)$/;

function action(...names: string[]): Route['match'] {
  return (path) => {
    const match = ACTION.exec(path);
    if (!match || !names.includes(match[3])) return null;
    return { version: match[1], model: decodeURIComponent(match[2]), action: match[3] };
  };
}

export const geminiRoutes: Route[] = [
  {
    key: 'gemini.generate',
    method: 'POST',
    match: action('generateContent'),
    error: geminiError,
    check: (ex) => bodyCheck(ex, 'contents'),
    handle: (ex) => generate(ex, false),
  },
  {
    key: 'gemini.stream',
    method: 'POST',
    match: action('streamGenerateContent'),
    error: geminiError,
    check: (ex) => bodyCheck(ex, 'contents'),
    handle: (ex) => generate(ex, true),
  },
  {
    key: 'gemini.embed',
    method: 'POST',
    match: action('embedContent', 'batchEmbedContents'),
    error: geminiError,
    check: geminiAuth,
    handle: embed,
  },
  {
    key: 'gemini.models',
    method: 'GET',
    match: (path, headers, query): Record<string, string> | null => {
      // `/v1beta/models` is Gemini's alone; `/v1/models` is shared with OpenAI and told apart by the Google key.
      const match = /^\/(v1beta|v1alpha|v1)\/models(?:\/([^/:]+))?$/.exec(path);
      if (!match) return null;
      if (match[1] === 'v1' && !query.key && !headers['x-goog-api-key']) return null;
      return match[2] ? { model: decodeURIComponent(match[2]) } : {};
    },
    error: geminiError,
    check: geminiAuth,
    handle: models,
  },
];
