import type { Language } from '@gateway/shared';
import { createParser } from 'eventsource-parser';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import { drained } from './cancellation.js';
import { RelayError } from './errors.js';
import type { Attempt, UpstreamResponse } from './pipeline.js';
import type { Billing } from './reserve.js';
import { settle } from './settle.js';
import { type ChunkConverter, newStreamState, type StreamState } from './stream/stream-state.js';
import type { Usage } from './types.js';
import { countTextTokens } from './usage.js';

export interface Outcome {
  usage: Usage;
  countedLocally: boolean;
  isStream: boolean;
  firstTokenMs: number | null;
  interruption?: string;
}

/** Settles the bill for an attempt that reached an upstream answer (complete or interrupted). */
export function finishAttempt(ctx: AppContext, billing: Billing, attempt: Attempt, outcome: Outcome): void {
  settle(ctx, {
    caller: billing.caller,
    reserved: billing.reserved,
    pricing: billing.pricing,
    groupRatio: billing.groupRatio,
    callCount: billing.callCount,
    usage: outcome.usage,
    countedLocally: outcome.countedLocally,
    channel: { id: attempt.channel.id, name: attempt.channel.name },
    model: billing.model,
    upstreamModel: attempt.upstreamModel,
    isStream: outcome.isStream,
    startedAt: attempt.startedAt,
    firstTokenMs: outcome.firstTokenMs,
    triedChannels: attempt.tried,
    requestId: attempt.requestId,
    interruption: outcome.interruption,
  });
  attempt.markSettled();
  if (!outcome.interruption) ctx.modelLimiter.succeeded(billing.caller.user.id);
}

/**
 * Relays an SSE answer: events are converted (or passed through) one by one, backpressure from a slow client is
 * respected, and the state (usage, generated text, first-token time) is returned however the stream ended.
 */
export async function relaySse(
  attempt: Attempt,
  response: UpstreamResponse,
  reply: FastifyReply,
  converter: ChunkConverter,
): Promise<{ state: StreamState; interruption?: string }> {
  const raw = reply.raw;
  reply.hijack();
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-oneapi-request-id': attempt.requestId,
  });
  const state = newStreamState();
  const decoder = new TextDecoder();
  let pending = '';
  const parser = createParser({
    onEvent(event) {
      const elapsed = Math.round(performance.now() - attempt.startedAt);
      pending += converter.push({ event: event.event, data: event.data }, state, elapsed);
    },
  });
  try {
    for await (const chunk of response.body) {
      parser.feed(decoder.decode(chunk as Buffer, { stream: true }));
      if (pending) {
        const out = pending;
        pending = '';
        if (!raw.write(out)) await drained(raw, attempt.cancellation);
      }
    }
    raw.end(converter.end(state));
    return { state };
  } catch (error) {
    const interruption = attempt.cancellation.aborted
      ? 'client_disconnected'
      : `upstream_error: ${error instanceof Error ? error.message : String(error)}`;
    if (!attempt.cancellation.aborted) raw.end();
    response.body.destroy();
    return { state, interruption };
  }
}

/** A non-streaming upstream answer as text and parsed JSON; an unreadable body is a 502 (never retried). */
export async function readUpstreamJson(
  response: UpstreamResponse,
  lang: Language,
): Promise<{ raw: string; parsed: Record<string, unknown> }> {
  const raw = await response.body.text();
  try {
    return { raw, parsed: JSON.parse(raw) as Record<string, unknown> };
  } catch {
    throw RelayError.of(502, lang, 'relay_upstream_bad_response', undefined, 'bad_response_body');
  }
}

/** A finished stream's usage: the upstream's, else both sides counted here with the tokenizer (flagged). */
export async function streamUsage(
  state: StreamState,
  promptText: string,
): Promise<{ usage: Usage; countedLocally: boolean }> {
  if (state.usage) return { usage: state.usage, countedLocally: false };
  const prompt = await countTextTokens(promptText);
  const completion = await countTextTokens(state.text);
  return {
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
    countedLocally: true,
  };
}
