import type { Language } from '@gateway/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { languageOf } from '../../http/envelope.js';
import { authenticateRelay } from '../auth.js';
import { RelayError } from '../errors.js';
import { runRelay } from '../pipeline.js';
import { openAiAdapter, openAiHeaders, openAiUrl } from '../providers/openai/adapter.js';
import { reserveQuota } from '../reserve.js';
import { finishAttempt, relaySse } from '../respond.js';
import { openAiPassThrough } from '../stream/openai-chunks.js';
import { responsesPassThrough, responsesUsage } from '../stream/responses-events.js';
import type { ChunkConverter } from '../stream/stream-state.js';
import type { Usage } from '../types.js';
import { countTextTokens } from '../usage.js';

type Body = Record<string, unknown> & { model?: unknown; stream?: unknown };

/** How one OpenAI endpoint is priced and read; the transport is the shared pipeline. */
interface EndpointSpec {
  route: string;
  defaultModel?: string;
  /** Text whose size estimates the prompt (and is counted when the upstream reports no usage). */
  inputText(body: Body): string;
  maxOutput?(body: Body): number;
  /** Per-call prices multiply by this (images: n, larger sizes, HD). */
  callCount?(body: Body): number;
  usage(json: Record<string, unknown>): Usage | null;
  stream?(body: Body): ChunkConverter;
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

const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

function openAiUsage(json: Record<string, unknown>): Usage | null {
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
function imageCallCount(body: Body): number {
  const n = Math.max(1, Math.floor(num(body.n) || 1));
  const size = String(body.size ?? '1024x1024');
  const sizeRatio = size.startsWith('256') ? 0.4 : size.startsWith('512') ? 0.45 : size.includes('1792') ? 2 : 1;
  const hd = body.quality === 'hd' ? (size.includes('1792') ? 1.5 : 2) : 1;
  return n * sizeRatio * hd;
}

export const OPENAI_ENDPOINTS: Record<string, EndpointSpec> = {
  '/v1/completions': {
    route: '/completions',
    inputText: (body) => textOf(body.prompt),
    maxOutput: (body) => num(body.max_tokens),
    usage: openAiUsage,
    stream: (body) => openAiPassThrough((body.stream_options as { include_usage?: boolean })?.include_usage === true),
  },
  '/v1/embeddings': { route: '/embeddings', inputText: (body) => textOf(body.input), usage: openAiUsage },
  '/v1/moderations': {
    route: '/moderations',
    defaultModel: 'text-moderation-stable',
    inputText: (body) => textOf(body.input),
    usage: openAiUsage,
  },
  '/v1/images/generations': {
    route: '/images/generations',
    defaultModel: 'dall-e-2',
    inputText: (body) => textOf(body.prompt),
    callCount: imageCallCount,
    usage: openAiUsage,
  },
  '/v1/rerank': {
    route: '/rerank',
    inputText: (body) => `${textOf(body.query)}\n${textOf(body.documents)}`,
    usage: openAiUsage,
  },
  '/v1/responses': {
    route: '/responses',
    inputText: (body) => `${textOf(body.instructions)}\n${textOf(body.input)}`,
    maxOutput: (body) => num(body.max_output_tokens),
    usage: (json) => responsesUsage(json.usage as Parameters<typeof responsesUsage>[0]) ?? openAiUsage(json),
    stream: () => responsesPassThrough(),
  },
};

function validate(body: unknown, spec: EndpointSpec, lang: Language): Body & { model: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw RelayError.of(400, lang, 'relay_body_invalid', { reason: 'JSON object expected' }, 'invalid_request');
  }
  const record = body as Body;
  const model = typeof record.model === 'string' && record.model.trim() ? record.model : spec.defaultModel;
  if (!model) throw RelayError.of(400, lang, 'relay_body_invalid', { reason: 'model is required' }, 'invalid_request');
  return { ...record, model };
}

/**
 * The OpenAI endpoints besides chat. They need an OpenAI-format channel (OpenAI, Azure and every compatible
 * row); the body goes upstream with only the model mapped, and the answer comes back byte for byte.
 */
export function openAiEndpoint(ctx: AppContext, path: string) {
  const spec = OPENAI_ENDPOINTS[path]!;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const startedAt = performance.now();
    const lang = languageOf(request);
    const caller = await authenticateRelay(ctx, request, lang);
    const body = validate(request.body, spec, lang);
    const input = spec.inputText(body);
    const billing = await reserveQuota(
      ctx,
      caller,
      {
        model: body.model,
        promptEstimate: Math.ceil(input.length / 4),
        maxOutput: spec.maxOutput?.(body) ?? 0,
        callCount: spec.callCount?.(body),
        promptText: () => input,
      },
      lang,
    );
    const streaming = body.stream === true && spec.stream !== undefined;
    return runRelay(
      ctx,
      reply,
      billing,
      {
        call(channel, adapter, upstreamModel) {
          if (adapter !== openAiAdapter) return null;
          const upstreamBody: Body = { ...body, model: upstreamModel };
          if (streaming && path === '/v1/completions') upstreamBody.stream_options = { include_usage: true };
          return {
            method: 'POST',
            url: openAiUrl(channel, spec.route, upstreamModel),
            headers: openAiHeaders(channel),
            body: JSON.stringify(upstreamBody),
          };
        },
        async succeed(attempt, response, out) {
          if (streaming) {
            const { state, interruption } = await relaySse(attempt, response, out, spec.stream!(body));
            const usage = state.usage ?? (await countedUsage(input, state.text));
            finishAttempt(ctx, billing, attempt, {
              usage,
              countedLocally: state.usage === null,
              isStream: true,
              firstTokenMs: state.firstTokenMs,
              interruption,
            });
            return;
          }
          const text = await response.body.text();
          let json: Record<string, unknown>;
          try {
            json = JSON.parse(text) as Record<string, unknown>;
          } catch {
            throw RelayError.of(502, lang, 'relay_upstream_bad_response', undefined, 'bad_response_body');
          }
          const reported = spec.usage(json);
          const usage = reported ?? (await countedUsage(input, ''));
          finishAttempt(ctx, billing, attempt, {
            usage,
            countedLocally: reported === null,
            isStream: false,
            firstTokenMs: Math.round(performance.now() - attempt.startedAt),
          });
          out.header('content-type', 'application/json').send(text);
        },
      },
      { lang, startedAt, requestId: String(request.id), isStream: streaming, rawBody: body },
    );
  };
}

async function countedUsage(input: string, output: string): Promise<Usage> {
  const prompt = await countTextTokens(input);
  const completion = await countTextTokens(output);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}
