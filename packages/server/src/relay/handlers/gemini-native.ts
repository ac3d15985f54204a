import type { Language } from '@gateway/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { languageOf } from '../../http/envelope.js';
import { authenticateRelay } from '../auth.js';
import { RelayError } from '../errors.js';
import { runRelay } from '../pipeline.js';
import { geminiAdapter } from '../providers/gemini/adapter.js';
import {
  type GeminiRequest,
  geminiPromptText,
  geminiToOpenAiRequest,
  openAiToGeminiResponse,
} from '../providers/gemini/from-gemini.js';
import { geminiUsage } from '../providers/gemini/response.js';
import { reserveQuota } from '../reserve.js';
import { geminiPassThrough, openAiChunksToGemini } from '../stream/gemini-native.js';
import { usableModels } from './models.js';
import { nativeFormatPlan } from './native-format-plan.js';

const ACTIONS = new Set(['generateContent', 'streamGenerateContent']);

function parseTarget(request: FastifyRequest, lang: Language): { model: string; stream: boolean } {
  const target = decodeURIComponent((request.params as { target: string }).target);
  const split = target.lastIndexOf(':');
  const model = split > 0 ? target.slice(0, split) : '';
  const action = split > 0 ? target.slice(split + 1) : '';
  if (!model || !ACTIONS.has(action)) {
    throw RelayError.of(501, lang, 'relay_not_implemented', undefined, 'api_not_implemented');
  }
  return { model: model.replace(/^models\//, ''), stream: action === 'streamGenerateContent' };
}

function validate(body: unknown, lang: Language): GeminiRequest {
  const request = body as GeminiRequest | null;
  const invalid = (reason: string) => RelayError.of(400, lang, 'relay_body_invalid', { reason }, 'invalid_request');
  if (typeof request !== 'object' || request === null || Array.isArray(request)) throw invalid('JSON object expected');
  if (!Array.isArray(request.contents) || request.contents.length === 0) throw invalid('contents is required');
  return request;
}

/**
 * `POST /v1beta/models/{model}:generateContent|streamGenerateContent` (and the `/v1/models/…` alias): what Google's
 * SDKs call. A Gemini channel gets the body as it is and the answer goes back untouched; any other channel is
 * reached through the OpenAI format and its answer converted back. Streams are always SSE (`alt=sse`), which is
 * what the SDKs ask for.
 */
export function geminiNativeHandler(ctx: AppContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const startedAt = performance.now();
    const lang = languageOf(request);
    const caller = await authenticateRelay(ctx, request, lang);
    const { model, stream } = parseTarget(request, lang);
    const body = validate(request.body, lang);
    const text = geminiPromptText(body);
    const billing = await reserveQuota(
      ctx,
      caller,
      {
        model,
        promptEstimate: Math.ceil(text.length / 4),
        maxOutput: body.generationConfig?.maxOutputTokens ?? 0,
        promptText: () => text,
      },
      lang,
    );
    return runRelay(
      ctx,
      reply,
      billing,
      nativeFormatPlan(ctx, billing, lang, {
        adapter: geminiAdapter,
        stream,
        model,
        promptText: text,
        nativeCall: (channel, upstreamModel) => ({
          ...geminiAdapter.chatCall(channel, { model: upstreamModel, messages: [], stream }),
          body: JSON.stringify(body),
        }),
        toOpenAi: (upstreamModel) => geminiToOpenAiRequest(body, upstreamModel, stream),
        nativeStream: geminiPassThrough,
        fromOpenAiStream: (inner) => openAiChunksToGemini(inner, model),
        nativeUsage: (answer) => geminiUsage(answer.usageMetadata as Parameters<typeof geminiUsage>[0]),
        fromOpenAiAnswer: (answer) => openAiToGeminiResponse(answer, model),
      }),
      { lang, startedAt, requestId: String(request.id), isStream: stream, rawBody: body },
    );
  };
}

/** `GET /v1beta/models`: the caller's usable models in Gemini's list shape. */
export async function listGeminiModels(ctx: AppContext, request: FastifyRequest) {
  const caller = await authenticateRelay(ctx, request, languageOf(request));
  return {
    models: usableModels(ctx, caller).map((model) => ({
      name: `models/${model}`,
      displayName: model,
      supportedGenerationMethods: ['generateContent', 'streamGenerateContent'],
    })),
  };
}
