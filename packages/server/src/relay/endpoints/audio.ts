import type { Language } from '@gateway/shared';
import type { Endpoint } from '../endpoint.js';
import { RelayError } from '../errors.js';
import { boundaryOf, type FormPart, fieldOf, parseMultipart, serializeMultipart } from '../multipart.js';
import type { Usage } from '../types.js';
import type { JsonBody } from './openai-routes.js';

// Whisper-style billing (family): 1000 tokens per minute of audio. Without a decoder the duration is estimated
// from the upload size (about 16 kB per second of compressed speech) unless the upstream reports it.
const TOKENS_PER_MINUTE = 1000;
const BYTES_PER_SECOND = 16_000;

const invalid = (lang: Language, reason: string) =>
  RelayError.of(400, lang, 'relay_body_invalid', { reason }, 'invalid_request');

const usageOf = (prompt: number): Usage => ({ prompt_tokens: prompt, completion_tokens: 0, total_tokens: prompt });

/** `POST /v1/audio/speech`: billed by input characters, the audio bytes stream straight through. */
export const speechEndpoint: Endpoint<JsonBody & { input: string }> = {
  parse(request, lang) {
    const body = request.body as Record<string, unknown> | null;
    if (!body || typeof body !== 'object' || typeof body.input !== 'string') throw invalid(lang, 'input is required');
    const model = typeof body.model === 'string' && body.model ? body.model : 'tts-1';
    const characters = body.input.length;
    return {
      model,
      stream: false,
      body: { ...body, model, input: body.input },
      reserve: { promptEstimate: characters, maxOutput: 0 },
      countPrompt: async () => characters,
      headers: request.headers,
    };
  },
  plan(provider, channel, request, upstreamModel) {
    const speech = provider.functions.speech;
    if (!speech) return null;
    const body = JSON.stringify({ ...request.body, model: upstreamModel });
    return {
      call: speech.call(channel, body, upstreamModel, 'application/json'),
      read: { kind: 'bytes', usage: usageOf(request.body.input.length) },
    };
  },
};

interface Upload {
  raw: Buffer;
  boundary: string;
  parts: FormPart[];
  estimatedTokens: number;
}

/** The usage a transcription answer reports: tokens (newer models) or the audio's duration (whisper). */
function transcriptionUsage(text: string, estimate: number): Usage {
  try {
    const json = JSON.parse(text) as { duration?: number; usage?: { input_tokens?: number; output_tokens?: number } };
    if (json.usage?.input_tokens !== undefined) {
      const input = json.usage.input_tokens;
      const output = json.usage.output_tokens ?? 0;
      return { prompt_tokens: input, completion_tokens: output, total_tokens: input + output };
    }
    if (typeof json.duration === 'number') return usageOf(Math.ceil((json.duration / 60) * TOKENS_PER_MINUTE));
  } catch {
    // text, srt or vtt answers: keep the size estimate
  }
  return usageOf(estimate);
}

/** `POST /v1/audio/transcriptions` and `/translations`: the upload is forwarded, the model field mapped if needed. */
export function transcriptionEndpoint(name: 'transcriptions' | 'translations'): Endpoint<Upload> {
  return {
    parse(request, lang) {
      const boundary = boundaryOf(request.headers['content-type']);
      if (!boundary || !Buffer.isBuffer(request.body)) throw invalid(lang, 'multipart/form-data expected');
      const raw = request.body;
      const parts = parseMultipart(raw, boundary);
      const file = parts.find((part) => part.name === 'file' && part.filename !== undefined);
      if (!file) throw invalid(lang, 'file is required');
      const model = fieldOf(parts, 'model') || 'whisper-1';
      const estimatedSeconds = Math.max(1, Math.ceil(file.data.length / BYTES_PER_SECOND));
      const estimatedTokens = Math.ceil((estimatedSeconds / 60) * TOKENS_PER_MINUTE);
      return {
        model,
        stream: false,
        body: { raw, boundary, parts, estimatedTokens },
        reserve: { promptEstimate: estimatedTokens, maxOutput: 0 },
        countPrompt: async () => estimatedTokens,
        headers: request.headers,
      };
    },
    plan(provider, channel, request, upstreamModel) {
      const served = provider.functions[name];
      if (!served) return null;
      const { raw, boundary, parts, estimatedTokens } = request.body;
      const body =
        upstreamModel === request.model
          ? raw
          : serializeMultipart(
              parts.map((part) => (part.name === 'model' ? { ...part, data: Buffer.from(upstreamModel) } : part)),
              boundary,
            );
      return {
        call: served.call(channel, body, upstreamModel, `multipart/form-data; boundary=${boundary}`),
        read: {
          kind: 'text',
          convert: (text, contentType) => ({
            body: text,
            contentType,
            usage: transcriptionUsage(text, estimatedTokens),
            outputText: '',
          }),
        },
      };
    },
  };
}
