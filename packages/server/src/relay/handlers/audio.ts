import type { Language } from '@gateway/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { languageOf } from '../../http/envelope.js';
import { authenticateRelay } from '../auth.js';
import { RelayError } from '../errors.js';
import { boundaryOf, fieldOf, parseMultipart, serializeMultipart } from '../multipart.js';
import { runRelay } from '../pipeline.js';
import { openAiAdapter, openAiHeaders, openAiUrl } from '../providers/openai/adapter.js';
import { reserveQuota } from '../reserve.js';
import { finishAttempt } from '../respond.js';
import type { Usage } from '../types.js';

// Whisper-style billing (family): 1000 tokens per minute of audio. Without a decoder the duration is estimated
// from the upload size (about 16 kB per second of compressed speech) unless the upstream reports it.
const TOKENS_PER_MINUTE = 1000;
const BYTES_PER_SECOND = 16_000;

const invalid = (lang: Language, reason: string) =>
  RelayError.of(400, lang, 'relay_body_invalid', { reason }, 'invalid_request');

const usageOf = (prompt: number): Usage => ({ prompt_tokens: prompt, completion_tokens: 0, total_tokens: prompt });

/** `POST /v1/audio/speech`: billed by input characters, the audio bytes stream straight through. */
export function speechHandler(ctx: AppContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const startedAt = performance.now();
    const lang = languageOf(request);
    const caller = await authenticateRelay(ctx, request, lang);
    const body = request.body as Record<string, unknown> | null;
    if (!body || typeof body !== 'object' || typeof body.input !== 'string') throw invalid(lang, 'input is required');
    const model = typeof body.model === 'string' && body.model ? body.model : 'tts-1';
    const characters = body.input.length;
    const billing = await reserveQuota(ctx, caller, { model, promptEstimate: characters, maxOutput: 0 }, lang);
    return runRelay(
      ctx,
      reply,
      billing,
      {
        call: (channel, adapter, upstreamModel) =>
          adapter === openAiAdapter
            ? {
                method: 'POST',
                url: openAiUrl(channel, '/audio/speech', upstreamModel),
                headers: openAiHeaders(channel),
                body: JSON.stringify({ ...body, model: upstreamModel }),
              }
            : null,
        async succeed(attempt, response, out) {
          out.hijack();
          out.raw.writeHead(200, {
            'content-type': String(response.headers['content-type'] ?? 'audio/mpeg'),
            'x-oneapi-request-id': attempt.requestId,
          });
          let interruption: string | undefined;
          try {
            for await (const chunk of response.body) out.raw.write(chunk);
            out.raw.end();
          } catch {
            interruption = attempt.cancellation.aborted ? 'client_disconnected' : 'upstream_error';
            out.raw.end();
          }
          finishAttempt(ctx, billing, attempt, {
            usage: usageOf(characters),
            countedLocally: true,
            isStream: false,
            firstTokenMs: null,
            interruption,
          });
        },
      },
      { lang, startedAt, requestId: String(request.id) },
    );
  };
}

/** `POST /v1/audio/transcriptions` and `/translations`: the upload is forwarded, the model field mapped if needed. */
export function transcriptionHandler(ctx: AppContext, route: '/audio/transcriptions' | '/audio/translations') {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const startedAt = performance.now();
    const lang = languageOf(request);
    const caller = await authenticateRelay(ctx, request, lang);
    const boundary = boundaryOf(request.headers['content-type']);
    if (!boundary || !Buffer.isBuffer(request.body)) throw invalid(lang, 'multipart/form-data expected');
    const raw = request.body;
    const parts = parseMultipart(raw, boundary);
    const file = parts.find((part) => part.name === 'file' && part.filename !== undefined);
    if (!file) throw invalid(lang, 'file is required');
    const model = fieldOf(parts, 'model') || 'whisper-1';
    const estimatedSeconds = Math.max(1, Math.ceil(file.data.length / BYTES_PER_SECOND));
    const estimatedTokens = Math.ceil((estimatedSeconds / 60) * TOKENS_PER_MINUTE);
    const billing = await reserveQuota(ctx, caller, { model, promptEstimate: estimatedTokens, maxOutput: 0 }, lang);
    return runRelay(
      ctx,
      reply,
      billing,
      {
        call(channel, adapter, upstreamModel) {
          if (adapter !== openAiAdapter) return null;
          const body =
            upstreamModel === model
              ? raw
              : serializeMultipart(
                  parts.map((part) => (part.name === 'model' ? { ...part, data: Buffer.from(upstreamModel) } : part)),
                  boundary,
                );
          const { 'content-type': _json, ...headers } = openAiHeaders(channel);
          return {
            method: 'POST',
            url: openAiUrl(channel, route, upstreamModel),
            headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
            body,
          };
        },
        async succeed(attempt, response, out) {
          const text = await response.body.text();
          let usage = usageOf(estimatedTokens);
          try {
            const json = JSON.parse(text) as {
              duration?: number;
              usage?: { input_tokens?: number; output_tokens?: number };
            };
            if (json.usage?.input_tokens !== undefined) {
              const input = json.usage.input_tokens;
              const output = json.usage.output_tokens ?? 0;
              usage = { prompt_tokens: input, completion_tokens: output, total_tokens: input + output };
            } else if (typeof json.duration === 'number') {
              usage = usageOf(Math.ceil((json.duration / 60) * TOKENS_PER_MINUTE));
            }
          } catch {
            // text, srt or vtt answers: keep the size estimate
          }
          finishAttempt(ctx, billing, attempt, {
            usage,
            countedLocally: true,
            isStream: false,
            firstTokenMs: Math.round(performance.now() - attempt.startedAt),
          });
          out.header('content-type', String(response.headers['content-type'] ?? 'application/json')).send(text);
        },
      },
      { lang, startedAt, requestId: String(request.id) },
    );
  };
}
