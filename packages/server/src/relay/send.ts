// The class's own module, not undici's index: see types/undici-agent.d.ts.
import Agent from 'undici/lib/dispatcher/agent.js';
import type { Cancellation } from './cancellation.js';
import type { WaitClock } from './overhead.js';
import type { UpstreamCall } from './types.js';
import { splitUrl, UpstreamExchange, type UpstreamResponse } from './upstream-exchange.js';

export type { UpstreamResponse } from './upstream-exchange.js';

// One keep-alive pool for all upstream traffic. Channel base URLs are admin-configured and may be private on purpose
// (self-hosted Ollama), so this agent does not apply the outbound address policy.
const upstreamAgent = new Agent({ connections: 256, keepAliveTimeout: 90_000, pipelining: 1 });

export interface SendOptions {
  timeoutMs: number;
  /** Aborts the call (before or during the answer) when the client leaves. */
  cancellation?: Cancellation;
  /** The most of the answer read whole (answer-limits.ts; its default when unset). */
  maxAnswerBytes?: number;
  /** Adds the time spent waiting on the upstream (its answer's head, then its body) to a request's clock. */
  clock?: WaitClock;
}

/** undici's own header and body timeouts bound the wait, so no extra timer or combined signal per request. */
export function sendUpstream(call: UpstreamCall, options: SendOptions): Promise<UpstreamResponse> {
  return new Promise((resolve, reject) => {
    const { origin, path } = splitUrl(call.url);
    const exchange = new UpstreamExchange(resolve, reject, options.cancellation, options.maxAnswerBytes, options.clock);
    try {
      upstreamAgent.dispatch(
        {
          origin,
          path,
          method: call.method,
          headers: call.headers,
          body: call.body ?? null,
          headersTimeout: options.timeoutMs,
          bodyTimeout: options.timeoutMs,
        },
        exchange,
      );
    } catch (error) {
      // A malformed channel URL is refused synchronously; the caller treats it like an unreachable upstream.
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
