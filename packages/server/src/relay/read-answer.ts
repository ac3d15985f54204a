import type { Language } from '@gateway/shared';
import { createParser } from 'eventsource-parser';
import type { FastifyReply } from 'fastify';
import type { CachedChannel } from '../cache/channel-cache.js';
import type { AnswerCapture } from './admission/body-capture/recorder.js';
import { AnswerTooLarge } from './answer-limits.js';
import { type Cancellation, drained } from './cancellation.js';
import type { AnswerReader, TaskCharge } from './endpoint.js';
import { errorFormat, RelayError } from './errors.js';
import { OVERHEAD_HEADER, overheadHeaderValue, type WaitClock } from './overhead.js';
import type { Billing } from './reserve.js';
import { EventSizeGuard } from './stream/event-size-guard.js';
import { type ChunkConverter, newStreamState } from './stream/stream-state.js';
import type { Usage } from './types.js';
import type { UpstreamResponse } from './upstream-exchange.js';
import { brokenAnswer, oversizedAnswer, unreadableAnswer } from './upstream-failure.js';

/** What an answer produced for billing, however it ended. */
export interface Outcome {
  usage: Usage | null;
  /** Generated text, counted when there is no usage. */
  outputText: string;
  firstTokenMs: number | null;
  /** Why a streamed answer ended early (client left, upstream broke). */
  interruption?: string;
  /**
   * For a whole (non-streamed) answer: sends it to the client. The conveyor settles first, so a client that reads
   * its log right after the answer finds the request there.
   */
  deliver?: () => void;
  /** A task submit's verdict: what was accepted and charged, or null when the upstream refused it. */
  task?: { charged: TaskCharge | null };
}

export interface AnswerContext {
  channel: CachedChannel;
  billing: Billing;
  requestId: string;
  startedAt: number;
  /** The request's wait on upstreams, for the overhead header (relay/overhead.ts). */
  clock: WaitClock;
  cancellation: Cancellation;
  lang: Language;
  /** Set when this call's bodies are kept (relay/admission/body-capture): it is told what the client was sent. */
  bodies?: AnswerCapture;
  /** The largest single event of a streamed answer (a whole answer's limit is its body's, see send.ts). */
  maxEventBytes: number;
}

/** Reads a 2xx upstream answer the way the leg says, streams it to the client, and returns what it produced. */
export function readAnswer(
  reader: AnswerReader,
  response: UpstreamResponse,
  reply: FastifyReply,
  context: AnswerContext,
): Promise<Outcome> {
  switch (reader.kind) {
    case 'sse':
      return relaySse(reader.converter, response, reply, context);
    case 'bytes':
      return relayBytes(reader.usage, response, reply, context);
    case 'task':
      return readTask(reader, response, reply, context);
    default:
      return readWhole(reader, response, reply, context);
  }
}

/** The whole body; an answer that breaks off before its end, or grows past its limit, is no answer. */
async function wholeBody(response: UpstreamResponse, context: AnswerContext): Promise<string> {
  try {
    return await response.body.text();
  } catch (error) {
    throw failureOf(error, response, context);
  }
}

/** What a broken read is for the caller: an answer grown too large, or one that broke off. */
function failureOf(error: unknown, response: UpstreamResponse, context: AnswerContext): RelayError {
  return error instanceof AnswerTooLarge
    ? oversizedAnswer(error, context.channel, context.lang, response.statusCode)
    : brokenAnswer(error, context.channel, context.lang);
}

/** The JSON of a whole answer; an unreadable body is a 502 (never retried: the upstream did answer). */
function parseJson(raw: string, response: UpstreamResponse, context: AnswerContext): Record<string, unknown> {
  try {
    const json = JSON.parse(raw) as unknown;
    if (json && typeof json === 'object' && !Array.isArray(json)) return json as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw unreadableAnswer(response.statusCode, raw, context.channel, context.lang);
}

async function readTask(
  reader: Extract<AnswerReader, { kind: 'task' }>,
  response: UpstreamResponse,
  reply: FastifyReply,
  context: AnswerContext,
): Promise<Outcome> {
  const json = parseJson(await wholeBody(response, context), response, context);
  const verdict = await reader.accept(json, { channel: context.channel, billing: context.billing, lang: context.lang });
  context.bodies?.whole(JSON.stringify(verdict.body), 'application/json');
  return {
    usage: null,
    outputText: '',
    firstTokenMs: null,
    task: { charged: verdict.charged },
    deliver: () => reply.code(200).send(verdict.body),
  };
}

async function readWhole(
  reader: Extract<AnswerReader, { kind: 'json' | 'text' }>,
  response: UpstreamResponse,
  reply: FastifyReply,
  context: AnswerContext,
): Promise<Outcome> {
  const raw = await wholeBody(response, context);
  let answer: ReturnType<typeof reader.convert>;
  const json = reader.kind === 'json' ? parseJson(raw, response, context) : null;
  try {
    answer = json
      ? (reader as Extract<AnswerReader, { kind: 'json' }>).convert(json, raw)
      : (reader as Extract<AnswerReader, { kind: 'text' }>).convert(
          raw,
          String(response.headers['content-type'] ?? 'application/json'),
        );
  } catch {
    // JSON of the wrong shape (a proxy's own answer, an empty object) is as unreadable as broken JSON.
    throw unreadableAnswer(response.statusCode, raw, context.channel, context.lang);
  }
  context.bodies?.whole(answer.body, answer.contentType);
  return {
    usage: answer.usage,
    outputText: answer.outputText,
    firstTokenMs: Math.round(performance.now() - context.startedAt),
    deliver: () =>
      reply
        .header('content-type', answer.contentType)
        .header(OVERHEAD_HEADER, overheadHeaderValue(context.startedAt, context.clock))
        .send(answer.body),
  };
}

type StreamWriter = NodeJS.WritableStream & {
  end(chunk?: string): void;
  write(chunk: string | Buffer): boolean;
};

function beginStream(reply: FastifyReply, contentType: string, context: AnswerContext): StreamWriter {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    // Headers the conveyor set for this answer (request id, omitted tools) go out with the stream too.
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': contentType,
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-oneapi-request-id': context.requestId,
    // The gateway's own time until the stream's first bytes (the rest is the upstream's pace).
    [OVERHEAD_HEADER]: overheadHeaderValue(context.startedAt, context.clock),
  });
  return raw;
}

/** What a 2xx stream without a single event began with, for the admin's log. */
const STREAM_HEAD_LENGTH = 500;

/**
 * Relays an SSE answer: events are converted (or passed through) one by one, backpressure from a slow client is
 * respected, and what was learnt (usage, generated text, first-token time) is returned however the stream ended.
 * The client's 200 goes out with the first event: an upstream that breaks or answers no event before that is
 * answered as an error status. One that breaks later ends the stream with an error event in the client's format.
 */
async function relaySse(
  converter: ChunkConverter,
  response: UpstreamResponse,
  reply: FastifyReply,
  context: AnswerContext,
): Promise<Outcome> {
  let raw: StreamWriter | null = null;
  let events = 0;
  /** The body's first bytes, kept only until an event arrives. */
  let head = '';
  const state = newStreamState();
  const guard = new EventSizeGuard(context.maxEventBytes);
  const decoder = new TextDecoder();
  let pending = '';
  const parser = createParser({
    onEvent(event) {
      events++;
      const elapsed = Math.round(performance.now() - context.startedAt);
      pending += converter.push({ event: event.event, data: event.data }, state, elapsed);
    },
    onError: converter.field
      ? (error) => {
          if (error.type === 'unknown-field') pending += converter.field!(error.field ?? '', error.value ?? '', state);
        }
      : undefined,
  });
  const outcome = (interruption?: string): Outcome => ({
    usage: state.usage,
    // Read on demand: a converter may have left the text of content events unread until it is needed.
    get outputText() {
      return converter.outputText ? converter.outputText(state) : state.text;
    },
    firstTokenMs: state.firstTokenMs,
    interruption,
  });
  try {
    for await (const chunk of response.body) {
      // Leaving the loop by throwing aborts the upstream read (UpstreamBody's iterator) before more is held.
      if (!guard.fits(chunk)) throw new AnswerTooLarge('event', context.maxEventBytes);
      const text = decoder.decode(chunk as Buffer, { stream: true });
      if (events === 0 && head.length < STREAM_HEAD_LENGTH) head += text;
      parser.feed(text);
      if (pending) {
        const out = pending;
        pending = '';
        raw ??= beginStream(reply, 'text/event-stream; charset=utf-8', context);
        context.bodies?.event(out);
        if (!raw.write(out)) await drained(raw, context.cancellation);
      }
    }
    // A 2xx that is no event stream (a proxy's page, JSON): nothing to relay.
    if (events === 0 && !raw) throw unreadableAnswer(response.statusCode, head, context.channel, context.lang);
    raw ??= beginStream(reply, 'text/event-stream; charset=utf-8', context);
    const last = converter.end(state);
    context.bodies?.event(last);
    raw.end(last);
    return outcome();
  } catch (error) {
    response.body.destroy();
    if (error instanceof RelayError) throw error;
    if (context.cancellation.aborted) {
      // The client left before its stream began: the reply is the conveyor's no more.
      if (!raw) reply.hijack();
      return outcome(interruptionOf(error, context.cancellation));
    }
    const failure = failureOf(error, response, context);
    if (!raw) throw failure;
    const event = failure.event(context.requestId, errorFormat(reply.request.url));
    context.bodies?.event(event);
    raw.end(event);
    return outcome(interruptionOf(error, context.cancellation));
  }
}

/** Streams bytes (speech audio) to the client as they come. */
async function relayBytes(
  usage: Usage,
  response: UpstreamResponse,
  reply: FastifyReply,
  context: AnswerContext,
): Promise<Outcome> {
  const contentType = String(response.headers['content-type'] ?? 'application/octet-stream');
  const raw = beginStream(reply, contentType, context);
  try {
    for await (const chunk of response.body) {
      context.bodies?.bytes((chunk as Buffer).length, contentType);
      if (!raw.write(chunk)) await drained(raw, context.cancellation);
    }
    raw.end();
    return { usage, outputText: '', firstTokenMs: null };
  } catch (error) {
    if (!context.cancellation.aborted) raw.end();
    response.body.destroy();
    return { usage, outputText: '', firstTokenMs: null, interruption: interruptionOf(error, context.cancellation) };
  }
}

/** Users read this in their log: what broke, never the library's words or the upstream's address. */
function interruptionOf(error: unknown, cancellation: Cancellation): string {
  if (cancellation.aborted) return 'client_disconnected';
  if (error instanceof AnswerTooLarge) return 'upstream_error: event too large';
  return (error as { code?: unknown } | null)?.code === 'UND_ERR_BODY_TIMEOUT'
    ? 'upstream_error: timeout'
    : 'upstream_error';
}
