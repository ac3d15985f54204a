/**
 * The load generator: node:http with keep-alive sockets, no dependency. It runs in the orchestrator, on the same
 * core as the mock upstream, and sends identical requests to the mock directly and through the gateway, so what
 * the client itself costs appears on both sides and cancels out of the "added" column.
 */
import { Agent, type OutgoingHttpHeaders, request } from 'node:http';

export interface Target {
  label: string;
  port: number;
  path: string;
  headers: Record<string, string>;
}

export interface Sample {
  /** HTTP status, or 0 when the request failed (refused, reset, timed out). */
  status: number;
  /** From handing the request to node:http until the last byte of the answer. */
  latencyMs: number;
  /** From handing the request to node:http until the first byte of the answer's body. */
  firstByteMs: number;
  body?: string;
  error?: string;
}

const REQUEST_TIMEOUT_MS = 15_000;

/** One keep-alive connection pool towards one target, and one prepared request body. */
export class LoadClient {
  private readonly agent: Agent;
  private readonly headers: OutgoingHttpHeaders;

  constructor(
    readonly target: Target,
    readonly body: Buffer,
    maxSockets: number,
  ) {
    // lifo reuses the most recently used (warm) socket first, so at a low rate few connections are in play, as
    // with a real client; a connection is only opened when all others are busy.
    this.agent = new Agent({ keepAlive: true, maxSockets, scheduling: 'lifo' });
    // Built once: a per-request object would be load-generator garbage on the core it shares with the mock.
    this.headers = {
      ...target.headers,
      'content-type': 'application/json',
      'content-length': String(body.length),
    };
  }

  send(keepBody = false): Promise<Sample> {
    return new Promise((resolve) => {
      const startedAt = performance.now();
      let firstByteAt = -1;
      let text = '';
      let settled = false;
      const finish = (sample: Sample) => {
        if (settled) return;
        settled = true;
        resolve(sample);
      };
      const failed = (error: Error) => {
        const now = performance.now() - startedAt;
        finish({ status: 0, latencyMs: now, firstByteMs: now, error: error.message });
      };
      const req = request(
        {
          agent: this.agent,
          host: '127.0.0.1',
          port: this.target.port,
          method: 'POST',
          path: this.target.path,
          headers: this.headers,
        },
        (res) => {
          res.on('data', (part: Buffer) => {
            if (firstByteAt < 0) firstByteAt = performance.now();
            if (keepBody) text += part.toString('utf8');
          });
          res.on('end', () => {
            const endedAt = performance.now();
            finish({
              status: res.statusCode ?? 0,
              latencyMs: endedAt - startedAt,
              firstByteMs: (firstByteAt < 0 ? endedAt : firstByteAt) - startedAt,
              ...(keepBody ? { body: text } : {}),
            });
          });
          res.on('error', failed);
          // 'end' comes first for a complete answer; a close without it is a cut connection.
          res.on('close', () => {
            if (!res.complete) failed(new Error('connection closed before the answer ended'));
          });
        },
      );
      req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
      req.on('error', failed);
      req.end(this.body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

export interface RunResult {
  /** Latency and first-byte time of the 2xx answers, in milliseconds. */
  latencies: number[];
  firstBytes: number[];
  ok: number;
  failed: number;
  /** A few distinct failure reasons ("503", "ECONNRESET", ...) with their counts. */
  failures: Map<string, number>;
  elapsedSeconds: number;
  /** Only for fixed-rate runs: how late sends left against their schedule (load generator health), in ms. */
  sendLagMs: number[];
}

function newResult(): RunResult {
  return { latencies: [], firstBytes: [], ok: 0, failed: 0, failures: new Map(), elapsedSeconds: 0, sendLagMs: [] };
}

function record(result: RunResult, sample: Sample): void {
  if (sample.status >= 200 && sample.status < 300) {
    result.ok += 1;
    result.latencies.push(sample.latencyMs);
    result.firstBytes.push(sample.firstByteMs);
    return;
  }
  result.failed += 1;
  const reason = sample.status === 0 ? (sample.error ?? 'error') : `HTTP ${sample.status}`;
  // Bounded: a storm of distinct messages must not grow memory.
  if (result.failures.size < 20 || result.failures.has(reason)) {
    result.failures.set(reason, (result.failures.get(reason) ?? 0) + 1);
  }
}

/**
 * Open loop: `rate` requests per second for `seconds`, each sent on its schedule whether or not earlier ones have
 * answered (a closed loop would slow down with the server and hide its latency spikes). Timers fire about every
 * millisecond; every request whose time has come is sent on each tick.
 */
export async function atFixedRate(client: LoadClient, rate: number, seconds: number): Promise<RunResult> {
  const result = newResult();
  const total = Math.max(1, Math.round(rate * seconds));
  const intervalMs = 1000 / rate;
  const startedAt = performance.now();
  let sent = 0;
  const pending: Promise<void>[] = [];
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      const due = Math.min(total, Math.floor((now - startedAt) / intervalMs) + 1);
      while (sent < due) {
        result.sendLagMs.push(now - (startedAt + sent * intervalMs));
        sent += 1;
        pending.push(client.send().then((sample) => record(result, sample)));
      }
      if (sent < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  // Every request carries its own timeout, so this wait is bounded.
  await Promise.all(pending);
  result.elapsedSeconds = (performance.now() - startedAt) / 1000;
  return result;
}

/**
 * Closed loop: `connections` workers, each sending its next request as soon as the previous one answered, for
 * `seconds`. The completed count over the elapsed time is the throughput.
 */
export async function closedLoop(client: LoadClient, connections: number, seconds: number): Promise<RunResult> {
  const result = newResult();
  const startedAt = performance.now();
  const deadline = startedAt + seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) record(result, await client.send());
  };
  await Promise.all(Array.from({ length: connections }, worker));
  result.elapsedSeconds = (performance.now() - startedAt) / 1000;
  return result;
}

export function failureText(result: RunResult): string {
  return [...result.failures].map(([reason, count]) => `${reason} ×${count}`).join(', ');
}
