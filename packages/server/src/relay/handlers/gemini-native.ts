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
import { finishAttempt, readUpstreamJson, relaySse, streamUsage } from '../respond.js';
import { geminiPassThrough, openAiChunksToGemini } from '../stream/gemini-native.js';
import { usableModels } from './models.js';

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
      {
        call(channel, adapter, upstreamModel) {
          if (adapter !== geminiAdapter) {
            return adapter.chatCall(channel, geminiToOpenAiRequest(body, upstreamModel, stream));
          }
          const call = geminiAdapter.chatCall(channel, { model: upstreamModel, messages: [], stream });
          return { ...call, body: JSON.stringify(body) };
        },
        async succeed(attempt, response, out) {
          const native = attempt.adapter === geminiAdapter;
          if (stream) {
            const converter = native
              ? geminiPassThrough()
              : openAiChunksToGemini(attempt.adapter.stream(attempt.upstreamModel, true), model);
            const { state, interruption } = await relaySse(attempt, response, out, converter);
            finishAttempt(ctx, billing, attempt, {
              ...(await streamUsage(state, text)),
              isStream: true,
              firstTokenMs: state.firstTokenMs,
              interruption,
            });
            return;
          }
          const { raw, parsed } = await readUpstreamJson(response, lang);
          const converted = native ? null : attempt.adapter.chatResponse(parsed, attempt.upstreamModel);
          const usage = native
            ? geminiUsage(parsed.usageMetadata as Parameters<typeof geminiUsage>[0])
            : converted?.usage;
          finishAttempt(ctx, billing, attempt, {
            usage: usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
            countedLocally: false,
            isStream: false,
            firstTokenMs: Math.round(performance.now() - attempt.startedAt),
          });
          out.header('content-type', 'application/json');
          out.send(native ? raw : JSON.stringify(openAiToGeminiResponse(converted!, model)));
        },
      },
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
