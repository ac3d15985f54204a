import { type ModelKind, modelKind } from '@gateway/shared';
import { chatToResponsesRequest } from '../formats/responses/chat-request-to-responses.js';
import { responsesAnswerToChat } from '../formats/responses/responses-answer-to-chat.js';
import { type ModelSuffix, withModelSuffix } from '../model-suffix.js';
import type { OptionReader, Provider, RouteFunction } from '../provider.js';
import type { ChatRequest, RuntimeChannel, UpstreamCall } from '../types.js';

/** One minimal request a model's own endpoint answers, and how to tell its answer is good. */
export interface TestRequest {
  kind: ModelKind;
  call: UpstreamCall;
  /** Reads a 2xx body; throws when it is not an answer of the endpoint. */
  check(body: string): void;
}

/** Reasoning models refuse `max_tokens`; they take `max_completion_tokens`. */
function chatLimit(model: string) {
  return /^(o\d|gpt-5)/.test(model) ? { max_completion_tokens: 16 } : { max_tokens: 16 };
}

/** A WAV file of a tenth of a second of silence: the smallest upload a transcription endpoint accepts. */
function silentWav(): Buffer {
  const samples = 1600;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(16_000, 24);
  wav.writeUInt32LE(32_000, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(samples * 2, 40);
  return wav;
}

function upload(model: string): { body: Buffer; contentType: string } {
  const boundary = 'gateway-channel-test';
  const field = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = `${field('model', model)}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="test.wav"\r\nContent-Type: audio/wav\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), silentWav(), Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

function jsonRoute(route: RouteFunction, channel: RuntimeChannel, model: string, body: Record<string, unknown>) {
  return route.call(channel, JSON.stringify({ model, ...body }), model, 'application/json');
}

/** The answer must be JSON (converted to the OpenAI shape when the provider speaks another format). */
const jsonCheck = (route: RouteFunction, model: string) => (body: string) => {
  const json = JSON.parse(body) as Record<string, unknown>;
  route.answer?.(json, model);
};

/**
 * The family tests each model on the endpoint it serves: an embedding model is asked to embed, a reranker to rank,
 * a speech model to speak… A chat request to them would fail and disable a healthy channel. Null when the channel's
 * provider does not serve that endpoint. A chat model named with a family suffix (`-thinking`, `-high`…) is tested
 * as the relay would send it: the name without the suffix, the suffix's thinking or effort settings applied.
 */
export function testRequestFor(
  provider: Provider,
  channel: RuntimeChannel,
  model: string,
  suffix: ModelSuffix | null = null,
  options?: OptionReader,
): TestRequest | null {
  const kind = modelKind(model);
  const fn = provider.functions;
  const route = (served: RouteFunction | undefined, body: Record<string, unknown>) =>
    served ? { kind, call: jsonRoute(served, channel, model, body), check: jsonCheck(served, model) } : null;
  switch (kind) {
    case 'embedding':
      return route(fn.embeddings, { input: 'hi' });
    case 'rerank':
      return route(fn.rerank, { query: 'hi', documents: ['hi', 'there'], top_n: 1 });
    case 'moderation':
      return route(fn.moderations, { input: 'hi' });
    case 'image':
      return route(fn.images, { prompt: 'a small red circle', n: 1 });
    case 'speech':
      return fn.speech
        ? {
            kind,
            call: jsonRoute(fn.speech, channel, model, { input: 'hi', voice: 'alloy' }),
            check: () => {},
          }
        : null;
    case 'transcription': {
      if (!fn.transcriptions) return null;
      const { body, contentType } = upload(model);
      return { kind, call: fn.transcriptions.call(channel, body, model, contentType), check: () => {} };
    }
    default: {
      // No 16-token cap with a suffix: a thinking budget must stay below the output limit, so the suffix's own
      // default (80 % of the model's default max tokens) is what the upstream must accept.
      const request: ChatRequest = withModelSuffix(
        { model, messages: [{ role: 'user', content: 'hi' }], stream: false, ...(suffix ? {} : chatLimit(model)) },
        suffix,
      );
      const chat = fn.chat;
      if (chat) {
        return {
          kind,
          call: chat.call(channel, request, options),
          check(body) {
            const answer = chat.answer(JSON.parse(body) as Record<string, unknown>, model);
            if (!Array.isArray(answer.choices)) throw new Error('bad_response_body');
          },
        };
      }
      // A Responses-only upstream (Codex) is tested as chat clients reach it: through the Responses API.
      if (!fn.responses) return null;
      return {
        kind,
        call: jsonRoute(fn.responses, channel, model, chatToResponsesRequest(request, model)),
        check: (body) => void responsesAnswerToChat(JSON.parse(body) as Record<string, unknown>, model),
      };
    }
  }
}
