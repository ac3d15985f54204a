import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { AnswerTooLarge, DEFAULT_WHOLE_ANSWER_BYTES } from './answer-limits.js';
import type { Cancellation } from './cancellation.js';
import type { WaitClock } from './overhead.js';

/**
 * One upstream request through undici's dispatch API. undici's `request()` wraps every call in an AsyncResource, a
 * Readable stream and signal plumbing (together a few percent of the gateway's CPU in the benchmark's profile); the
 * relay only ever reads an answer whole (JSON) or chunk by chunk (SSE), so this small handler does just that.
 */

/** Buffered bytes above which the upstream socket is paused until the reader catches up (a slow client). */
const HIGH_WATER = 64 * 1024;

/** The body of an upstream answer: read it whole, iterate its chunks, or throw it away. */
export class UpstreamBody implements AsyncIterable<Buffer> {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private ended = false;
  private failure: Error | null = null;
  private wake: (() => void) | null = null;
  /** Reading the whole body: never pause the socket for it. */
  private collecting = false;
  private discarding = false;
  controller: Dispatcher.DispatchController | null = null;
  /** The request's clock: every wait for more of the body is time spent on the upstream, not in the gateway. */
  clock: WaitClock | undefined;
  /** When the reader began waiting for more (performance.now), or -1: the wait is added to the clock on waking. */
  private waitingSince = -1;

  /**
   * @param maxWholeBytes the most `text()` holds: past it the upstream request is aborted and `text()` throws
   * AnswerTooLarge (iterating needs no limit: a slow reader pauses the socket at HIGH_WATER).
   */
  constructor(private readonly maxWholeBytes = DEFAULT_WHOLE_ANSWER_BYTES) {}

  /** From the handler: a chunk arrived. */
  push(chunk: Buffer): void {
    if (this.discarding) return;
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    if (this.collecting && this.buffered > this.maxWholeBytes) {
      this.refuseOversized();
      return;
    }
    if (!this.collecting && this.buffered >= HIGH_WATER) this.controller?.pause();
    this.notify();
  }

  /** Drops what was gathered and stops the upstream sending more: an answer that size is no answer. */
  private refuseOversized(): void {
    const failure = new AnswerTooLarge('answer', this.maxWholeBytes);
    this.discarding = true;
    this.chunks = [];
    this.buffered = 0;
    if (!this.ended) this.controller?.abort(failure);
    this.ended = true;
    this.failure = failure;
    this.notify();
  }

  /** From the handler: the answer is complete, or broke off with `error`. */
  finish(error?: Error): void {
    if (this.ended) return;
    this.ended = true;
    if (error) this.failure = error;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    if (!wake) return;
    this.wake = null;
    if (this.clock && this.waitingSince >= 0) this.clock.upstreamMs += performance.now() - this.waitingSince;
    this.waitingSince = -1;
    wake();
  }

  private waitForMore(): Promise<void> {
    if (this.clock) this.waitingSince = performance.now();
    return new Promise((resolve) => {
      this.wake = resolve;
    });
  }

  async text(): Promise<string> {
    this.collecting = true;
    if (this.buffered > this.maxWholeBytes) this.refuseOversized();
    else this.controller?.resume();
    while (!this.ended) await this.waitForMore();
    if (this.failure) throw this.failure;
    const whole = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.buffered);
    this.chunks = [];
    this.buffered = 0;
    return whole.toString('utf8');
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Buffer> {
    try {
      for (;;) {
        const chunk = this.chunks.shift();
        if (chunk) {
          this.buffered -= chunk.length;
          if (this.buffered < HIGH_WATER) this.controller?.resume();
          yield chunk;
          continue;
        }
        if (this.failure) throw this.failure;
        if (this.ended) return;
        await this.waitForMore();
      }
    } finally {
      // Leaving the loop early (the client went away, a converter threw) must not leave the socket half-read.
      if (!this.ended) this.destroy();
    }
  }

  /** Reads and forgets the rest, keeping the connection reusable. */
  async dump(): Promise<void> {
    this.discarding = true;
    this.chunks = [];
    this.buffered = 0;
    this.controller?.resume();
    while (!this.ended) await this.waitForMore();
  }

  /** Stops reading: the upstream request is aborted and its socket closed. */
  destroy(): void {
    this.discarding = true;
    this.chunks = [];
    this.buffered = 0;
    if (!this.ended) this.controller?.abort(new Error('upstream body discarded'));
    this.finish();
  }
}

export interface UpstreamResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: UpstreamBody;
}

/** The dispatch handler: resolves once the status and headers are in, then feeds the body. */
export class UpstreamExchange implements Dispatcher.DispatchHandler {
  readonly body: UpstreamBody;
  private started = false;
  private readonly stopListening: (() => void) | null = null;
  /** When the request left, for the wait on its answer's head (performance.now; 0 without a clock). */
  private readonly sentAt: number;

  constructor(
    private readonly resolve: (response: UpstreamResponse) => void,
    private readonly reject: (error: Error) => void,
    private readonly cancellation: Cancellation | undefined,
    maxWholeBytes?: number,
    private readonly clock?: WaitClock,
  ) {
    this.body = new UpstreamBody(maxWholeBytes);
    this.body.clock = clock;
    this.sentAt = clock ? performance.now() : 0;
    if (cancellation) {
      this.stopListening = cancellation.onAbort(() => this.body.controller?.abort(new Error(CANCELLED)));
    }
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.body.controller = controller;
    if (this.cancellation?.aborted) controller.abort(new Error(CANCELLED));
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    // 1xx answers (100 Continue, 103 Early Hints) come before the real one.
    if (statusCode < 200 || this.started) return;
    this.started = true;
    this.waitedForHead();
    this.resolve({ statusCode, headers, body: this.body });
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.body.push(chunk);
  }

  onResponseEnd(): void {
    this.done();
    this.body.finish();
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.done();
    if (this.started) this.body.finish(error);
    else {
      this.waitedForHead();
      this.reject(error);
    }
  }

  private waitedForHead(): void {
    if (this.clock) this.clock.upstreamMs += performance.now() - this.sentAt;
  }

  private done(): void {
    this.stopListening?.();
  }
}

const CANCELLED = 'upstream request cancelled: the client went away';

const PATH_MARKS = ['/', '?', '#'];

/** `https://host:port/path?q#f` → origin and path (the fragment is never sent), without a URL object per request. */
export function splitUrl(url: string): { origin: string; path: string } {
  const authority = url.indexOf('://');
  const start = authority === -1 ? 0 : authority + 3;
  let end = url.length;
  for (const mark of PATH_MARKS) {
    const at = url.indexOf(mark, start);
    if (at !== -1 && at < end) end = at;
  }
  const fragment = url.indexOf('#', end);
  const rest = url.slice(end, fragment === -1 ? url.length : fragment);
  return { origin: url.slice(0, end), path: rest.startsWith('/') ? rest : `/${rest}` };
}
