import type { Language } from '@gateway/shared';
import type { FastifyRequest } from 'fastify';
import type { Endpoint } from '../endpoint.js';
import { RelayError } from '../errors.js';
import {
  type GeminiRequest,
  geminiPromptText,
  geminiToOpenAiRequest,
  openAiToGeminiResponse,
} from '../formats/gemini/from-gemini.js';
import { geminiUsage } from '../formats/gemini/response.js';
import { geminiPassThrough, openAiChunksToGemini } from '../formats/gemini/stream-native.js';
import { countTextTokens } from '../usage.js';
import { type NativeFormat, planNativeFormat } from './native-format.js';

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

const GENERATE: NativeFormat<GeminiRequest> = {
  native: (provider) => provider.functions.generateContent,
  nativeStream: geminiPassThrough,
  nativeUsage: (answer) => geminiUsage(answer.usageMetadata as Parameters<typeof geminiUsage>[0]),
  // A prompt Google blocks is answered with its promptFeedback and no candidates.
  isNativeAnswer: (answer) => Array.isArray(answer.candidates) || typeof answer.promptFeedback === 'object',
  toChat: geminiToOpenAiRequest,
  fromChatStream: openAiChunksToGemini,
  fromChatAnswer: openAiToGeminiResponse,
};

/**
 * `POST /v1beta/models/{model}:generateContent|streamGenerateContent` (and the `/v1/models/…` alias): what Google's
 * SDKs call. A Gemini channel gets the body as it is and the answer goes back untouched; any other channel is
 * reached through the OpenAI format and its answer converted back. Streams are always SSE (`alt=sse`), which is
 * what the SDKs ask for.
 */
export const geminiGenerateEndpoint: Endpoint<GeminiRequest> = {
  parse(request, lang) {
    const { model, stream } = parseTarget(request, lang);
    const body = validate(request.body, lang);
    const text = geminiPromptText(body);
    return {
      model,
      stream,
      body,
      reserve: {
        promptEstimate: Math.ceil(text.length / 4),
        maxOutput: body.generationConfig?.maxOutputTokens ?? 0,
        promptText: () => text,
      },
      countPrompt: () => countTextTokens(text),
      rawBody: body,
      headers: request.headers,
    };
  },
  plan: (provider, channel, request, upstreamModel, options, suffix) =>
    planNativeFormat(GENERATE, provider, channel, request, upstreamModel, options, suffix),
};
