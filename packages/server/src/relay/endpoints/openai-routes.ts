import type { Language } from '@gateway/shared';
import type { Endpoint } from '../endpoint.js';
import { RelayError } from '../errors.js';
import { openAiPassThrough } from '../formats/openai-chat/stream.js';
import type { RouteFunctionName } from '../provider.js';
import type { ChunkConverter } from '../stream/stream-state.js';
import type { Usage } from '../types.js';
import { countTextTokens } from '../usage.js';

export type JsonBody = Record<string, unknown> & { model: string };

/** How one OpenAI endpoint besides chat is priced and read; everything else is the conveyor's. */
interface RouteSpec {
  function: RouteFunctionName;
  /** The list every answer of the endpoint holds: a 2xx without it (a proxy's own JSON) is no answer. */
  answerList: 'choices' | 'data' | 'results';
  defaultModel?: string;
  /** Text whose size estimates the prompt (and is counted when the upstream reports no usage). */
  inputText(body: JsonBody): string;
  maxOutput?(body: JsonBody): number;
  /** Per-call prices multiply by this (images: n, larger sizes, HD). */
  callCount?(body: JsonBody): number;
  usage(json: Record<string, unknown>): Usage | null;
  /** The stream reader, for endpoints that stream. */
  stream?(body: JsonBody): ChunkConverter;
  /** Changes to the upstream body when streaming (ask for the usage chunk). */
  streamBody?(body: JsonBody): JsonBody;
  /** Puts a converted answer in the form the client asked for (an OpenAI answer already is). */
  shape?(answer: Record<string, unknown>, body: JsonBody): Record<string, unknown>;
}

const textOf = (value: unknown): string => {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(textOf).join('\n');
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return textOf(record.text ?? record.content ?? record.input ?? '');
  }
  return '';
};

const same = <T>(value: T) => value;

const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

export function openAiUsage(json: Record<string, unknown>): Usage | null {
  const usage = json.usage as Record<string, unknown> | undefined;
  if (!usage) return null;
  const prompt = num(usage.prompt_tokens ?? usage.input_tokens ?? usage.total_tokens);
  const completion = num(usage.completion_tokens ?? usage.output_tokens);
  const details = (usage.prompt_tokens_details ?? usage.input_tokens_details) as { cached_tokens?: number } | undefined;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: details?.cached_tokens ?? 0 },
  };
}

// DALL·E prices scale with size and quality (family ratios).
function imageCallCount(body: JsonBody): number {
  const n = Math.max(1, Math.floor(num(body.n) || 1));
  const size = String(body.size ?? '1024x1024');
  const sizeRatio = size.startsWith('256') ? 0.4 : size.startsWith('512') ? 0.45 : size.includes('1792') ? 2 : 1;
  const hd = body.quality === 'hd' ? (size.includes('1792') ? 1.5 : 2) : 1;
  return n * sizeRatio * hd;
}

/** A vector as OpenAI's `encoding_format: base64` sends it: float32 bytes (little-endian, as every host this runs on) in base64. */
function base64Vector(vector: number[]): string {
  return Buffer.from(Float32Array.from(vector).buffer).toString('base64');
}

/**
 * Providers whose own format has no base64 vectors answer floats; the openai SDK asks for base64 by default and would
 * decode a float list as garbage, so the gateway encodes them as asked.
 */
function embeddingsAsAsked(answer: Record<string, unknown>, body: JsonBody): Record<string, unknown> {
  if (body.encoding_format !== 'base64' || !Array.isArray(answer.data)) return answer;
  const data = (answer.data as Array<Record<string, unknown>>).map((item) =>
    Array.isArray(item.embedding) ? { ...item, embedding: base64Vector(item.embedding as number[]) } : item,
  );
  return { ...answer, data };
}

const ROUTES: Record<string, RouteSpec> = {
  '/v1/completions': {
    function: 'completions',
    answerList: 'choices',
    inputText: (body) => textOf(body.prompt),
    maxOutput: (body) => num(body.max_tokens),
    usage: openAiUsage,
    stream: (body) => openAiPassThrough((body.stream_options as { include_usage?: boolean })?.include_usage === true),
    streamBody: (body) => ({ ...body, stream_options: { include_usage: true } }),
  },
  '/v1/embeddings': {
    function: 'embeddings',
    answerList: 'data',
    inputText: (body) => textOf(body.input),
    usage: openAiUsage,
    shape: embeddingsAsAsked,
  },
  '/v1/moderations': {
    function: 'moderations',
    answerList: 'results',
    defaultModel: 'text-moderation-stable',
    inputText: (body) => textOf(body.input),
    usage: openAiUsage,
  },
  '/v1/images/generations': {
    function: 'images',
    answerList: 'data',
    defaultModel: 'dall-e-2',
    inputText: (body) => textOf(body.prompt),
    callCount: imageCallCount,
    usage: openAiUsage,
  },
  '/v1/rerank': {
    function: 'rerank',
    answerList: 'results',
    inputText: (body) => `${textOf(body.query)}\n${textOf(body.documents)}`,
    usage: openAiUsage,
  },
};

export const OPENAI_ROUTE_PATHS = Object.keys(ROUTES);

function validate(body: unknown, spec: RouteSpec, lang: Language): JsonBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw RelayError.of(400, lang, 'relay_body_invalid', { reason: 'JSON object expected' }, 'invalid_request');
  }
  const record = body as Record<string, unknown>;
  const model = typeof record.model === 'string' && record.model.trim() ? record.model : spec.defaultModel;
  if (!model) throw RelayError.of(400, lang, 'relay_body_invalid', { reason: 'model is required' }, 'invalid_request');
  return { ...record, model };
}

/** The endpoint of an OpenAI route besides chat: the body goes upstream with only the model replaced. */
export function openAiRouteEndpoint(path: string): Endpoint<JsonBody> {
  const spec = ROUTES[path]!;
  return {
    parse(request, lang) {
      const body = validate(request.body, spec, lang);
      const input = spec.inputText(body);
      return {
        model: body.model,
        stream: body.stream === true && spec.stream !== undefined,
        body,
        reserve: {
          promptEstimate: Math.ceil(input.length / 4),
          maxOutput: spec.maxOutput?.(body) ?? 0,
          callCount: spec.callCount?.(body),
          promptText: () => input,
        },
        countPrompt: () => countTextTokens(input),
        rawBody: body,
        headers: request.headers,
      };
    },
    plan(provider, channel, request, upstreamModel) {
      const served = provider.functions[spec.function];
      if (!served) return null;
      let body: JsonBody = { ...request.body, model: upstreamModel };
      if (request.stream && spec.streamBody) body = spec.streamBody(body);
      const call = served.call(channel, JSON.stringify(body), upstreamModel, 'application/json');
      if (request.stream) return { call, read: { kind: 'sse', converter: spec.stream!(request.body) } };
      const convert = served.answer;
      return {
        call,
        read: {
          kind: 'json',
          convert(json, raw) {
            // Another wire format's answer is converted to the OpenAI shape; an OpenAI one goes back byte for byte.
            const answer = convert ? (spec.shape ?? same)(convert(json, upstreamModel), request.body) : json;
            // The conveyor answers a throw here as an unreadable upstream answer.
            if (!Array.isArray(answer[spec.answerList])) throw new Error(`the answer has no ${spec.answerList}`);
            const body = convert ? JSON.stringify(answer) : raw;
            return { body, contentType: 'application/json', usage: spec.usage(answer), outputText: '' };
          },
        },
      };
    },
  };
}
