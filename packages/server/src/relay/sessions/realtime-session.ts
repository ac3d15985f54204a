import { type Language, type RealtimeUsage, realtimeQuota } from '@gateway/shared';
import WebSocket from 'ws';
import type { CachedChannel } from '../../cache/channel-cache.js';
import type { AppContext } from '../../context.js';
import { RelayError } from '../errors.js';
import { audioRatios } from '../pricing.js';
import { type Billing, refund, reserveQuota } from '../reserve.js';
import { settle } from '../settle.js';
import type { Usage } from '../types.js';

/**
 * One relayed Realtime session: the client's and the upstream's messages pass unchanged both ways, and each
 * `response.done` is settled as its own request (one consume log row) against the reservation made before it;
 * the next response's reservation is made at once, and a caller whose quota cannot cover it gets an error event
 * and a closed session. A response is billed when the upstream reports it done, once by its id, whichever side
 * closes first; what is reserved when the session ends is refunded. Either side's close closes the other.
 */

export interface RealtimeRun {
  billing: Billing;
  channel: CachedChannel;
  upstreamModel: string;
  tried: number[];
  requestId: string;
  lang: Language;
}

/** Close codes that may not be sent in a close frame (they only describe one). */
const UNSENDABLE = new Set([1004, 1005, 1006, 1015]);
const MAX_REASON_BYTES = 123;

/** The usage object of a `response.done` event (OpenAI Realtime, GA and beta alike). */
interface RealtimeWireUsage {
  input_tokens?: number;
  output_tokens?: number;
  total_tokens?: number;
  input_token_details?: {
    text_tokens?: number;
    audio_tokens?: number;
    cached_tokens?: number;
    cached_tokens_details?: { text_tokens?: number; audio_tokens?: number };
  };
  output_token_details?: { text_tokens?: number; audio_tokens?: number };
}

export class RealtimeSession {
  /** What is reserved for the response to come (0 while a new reservation is being made). */
  private reserved: number;
  private readonly billed = new Set<string>();
  private ended = false;
  private endListeners: (() => void)[] = [];
  /** When the response in progress began (its log row's duration), or the session when none has yet. */
  private responseStartedAt = performance.now();
  /** Milliseconds from `response.created` to its first delta; null until one came. */
  private firstDeltaMs: number | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly client: WebSocket,
    private readonly upstream: WebSocket,
    private readonly run: RealtimeRun,
  ) {
    this.reserved = run.billing.reserved;
  }

  onEnd(listener: () => void): void {
    this.endListeners.push(listener);
  }

  start(): void {
    const { client, upstream } = this;
    client.on('message', (data, isBinary) => {
      if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary: isBinary });
    });
    upstream.on('message', (data, isBinary) => {
      // Billed before it is passed on: a client that has its usage has been charged for it.
      if (!isBinary) this.observe(data.toString());
      if (client.readyState === WebSocket.OPEN) client.send(data, { binary: isBinary });
    });
    client.on('close', (code, reason) => this.closed(upstream, code === 1005 ? 1000 : code, reason));
    upstream.on('close', (code, reason) => this.closed(client, code, reason));
    client.on('error', () => this.abort());
    upstream.on('error', () => this.abort());
    // The upstream's first events (session.created) waited for the client.
    upstream.resume();
  }

  /** Closes both sides (server shutdown, quota exhausted). */
  close(code: number, reason: string): void {
    for (const socket of [this.client, this.upstream]) {
      if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING) {
        socket.close(code, reason);
      }
    }
    this.finish();
  }

  /** One side closed: the other is closed with its code, and billing ends. */
  private closed(other: WebSocket, code: number, reason: Buffer): void {
    if (other.readyState === WebSocket.OPEN) {
      const text = reason.length <= MAX_REASON_BYTES ? reason.toString() : '';
      other.close(sendableCode(code), text);
    } else if (other.readyState === WebSocket.CONNECTING) {
      other.terminate();
    }
    // The other side's closing handshake is awaited a moment, then the socket is dropped.
    setTimeout(() => other.terminate(), 5000).unref();
    if (this.client.readyState === WebSocket.CLOSED && this.upstream.readyState === WebSocket.CLOSED) this.finish();
    else other.once('close', () => this.finish());
  }

  private abort(): void {
    this.client.terminate();
    this.upstream.terminate();
    this.finish();
  }

  /** Once: the reservation left over is refunded. */
  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.release();
    for (const listener of this.endListeners) listener();
  }

  private release(): void {
    if (this.reserved > 0) refund(this.ctx, { ...this.run.billing, reserved: this.reserved });
    this.reserved = 0;
  }

  private observe(text: string): void {
    let event: { type?: unknown; response?: { id?: unknown; usage?: unknown } };
    try {
      event = JSON.parse(text) as typeof event;
    } catch {
      return;
    }
    if (event.type === 'response.created') {
      this.responseStartedAt = performance.now();
      this.firstDeltaMs = null;
    } else if (this.firstDeltaMs === null && isResponseDelta(event.type)) {
      // The first text or audio of a response: the log's first-token time, as for a streamed chat.
      this.firstDeltaMs = Math.round(performance.now() - this.responseStartedAt);
    }
    if (event.type !== 'response.done' || typeof event.response !== 'object' || event.response === null) return;
    const id = typeof event.response.id === 'string' ? event.response.id : `response-${this.billed.size}`;
    const usage = event.response.usage as RealtimeWireUsage | undefined;
    if (this.billed.has(id) || typeof usage !== 'object' || usage === null) return;
    this.billed.add(id);
    this.bill(usage);
  }

  private bill(wire: RealtimeWireUsage): void {
    const { ctx, run } = this;
    const { billing } = run;
    const split = splitUsage(wire);
    const usage: Usage = {
      prompt_tokens: split.textInput + split.audioInput,
      completion_tokens: split.textOutput + split.audioOutput,
      total_tokens: split.textInput + split.audioInput + split.textOutput + split.audioOutput,
      prompt_tokens_details: { cached_tokens: split.cachedText + split.cachedAudio },
    };
    let priced: { quota: number; facts: Record<string, unknown> } | undefined;
    if (billing.pricing.kind === 'tokens') {
      const audio = audioRatios(ctx.options, billing.model);
      const quota = realtimeQuota(split, { ...billing.pricing, ...audio, groupRatio: billing.groupRatio });
      priced = {
        quota,
        facts: {
          ws: true,
          audio_ratio: audio.audioRatio,
          audio_completion_ratio: audio.audioCompletionRatio,
          text_input: split.textInput,
          audio_input: split.audioInput,
          text_output: split.textOutput,
          audio_output: split.audioOutput,
        },
      };
    }
    const reserved = this.reserved;
    this.reserved = 0;
    settle(ctx, {
      caller: billing.caller,
      reserved,
      subscriptionId: billing.subscriptionId,
      pricing: billing.pricing,
      groupRatio: billing.groupRatio,
      callCount: 1,
      usage,
      countedLocally: false,
      channel: { id: run.channel.id, name: run.channel.name },
      model: billing.model,
      upstreamModel: run.upstreamModel,
      isStream: true,
      startedAt: this.responseStartedAt,
      firstTokenMs: this.firstDeltaMs,
      triedChannels: run.tried,
      requestId: run.requestId,
      priced,
    });
    if (!this.ended) void this.reserveNext();
  }

  /** The next response's reservation; a caller who cannot cover it is told so and the session ends. */
  private async reserveNext(): Promise<void> {
    const { ctx, run } = this;
    try {
      const next = await reserveQuota(
        ctx,
        run.billing.caller,
        { model: run.billing.model, promptEstimate: 0, maxOutput: 0, source: run.billing.subscriptionId },
        run.lang,
      );
      this.reserved += next.reserved;
      // The session ended while the reservation was made.
      if (this.ended) this.release();
    } catch (error) {
      if (this.ended) return;
      const refusal = error instanceof RelayError ? error : null;
      if (this.client.readyState === WebSocket.OPEN) {
        this.client.send(
          JSON.stringify({
            type: 'error',
            event_id: `event_quota_${Date.now()}`,
            error: {
              type: 'insufficient_quota',
              code: refusal?.code ?? 'insufficient_quota',
              message: refusal?.message ?? 'quota exhausted',
              param: null,
              event_id: null,
            },
          }),
        );
      }
      this.close(1000, 'quota exhausted');
    }
  }
}

/** `response.output_text.delta`, `response.output_audio.delta`, `response.audio_transcript.delta` and the like. */
function isResponseDelta(type: unknown): boolean {
  return typeof type === 'string' && type.startsWith('response.') && type.endsWith('.delta');
}

/** A close code the other side may be sent: 1005/1006 (no code, abnormal) become 1000 and 1011. */
function sendableCode(code: number): number {
  if (code === 1005) return 1000;
  if (UNSENDABLE.has(code) || code < 1000 || (code > 1014 && code < 3000) || code > 4999) return 1011;
  return code;
}

/** The usage split by kind; without details every token is text, and cached tokens are text ones first. */
export function splitUsage(wire: RealtimeWireUsage): RealtimeUsage {
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0);
  const input = wire.input_token_details;
  const output = wire.output_token_details;
  const textInput = input ? count(input.text_tokens) : count(wire.input_tokens);
  const audioInput = input ? count(input.audio_tokens) : 0;
  const cached = count(input?.cached_tokens);
  const cachedDetails = input?.cached_tokens_details;
  const cachedText = cachedDetails ? count(cachedDetails.text_tokens) : Math.min(cached, textInput);
  const cachedAudio = cachedDetails ? count(cachedDetails.audio_tokens) : Math.min(cached - cachedText, audioInput);
  return {
    textInput,
    audioInput,
    cachedText,
    cachedAudio,
    textOutput: output ? count(output.text_tokens) : count(wire.output_tokens),
    audioOutput: output ? count(output.audio_tokens) : 0,
  };
}
