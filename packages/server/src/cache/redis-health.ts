import type { Redis } from 'ioredis';

type Listener = () => void;

/** One warning line on stderr, shaped like the server's own log lines (this runs outside any request). */
function warn(message: string, extra: Record<string, unknown> = {}): void {
  console.warn(JSON.stringify({ level: 40, time: Date.now(), msg: message, ...extra }));
}

/**
 * Whether Redis can be relied on right now. It goes down when the connection drops or any command fails or times
 * out (a slow Redis counts as down: waiting on it would hold requests), which is logged once per outage; while
 * down, a ping every half second (itself bounded by the command timeout) brings it back up, which is logged too.
 * Everything built on Redis asks `up` first and answers from the node's own memory while it is false, and counts
 * each such answer in `fallbacks` (for /metrics).
 */
export class RedisHealth {
  up = true;
  outages = 0;
  fallbacks = 0;
  private readonly downListeners: Listener[] = [];
  private readonly upListeners: Listener[] = [];
  private probe: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly client: Redis,
    subscriber: Redis,
  ) {
    // Without an `error` listener ioredis prints every failed reconnect as an unhandled error.
    for (const connection of [client, subscriber]) {
      connection.on('error', (error: Error) => this.failed(error));
      connection.on('close', () => this.failed(new Error('connection closed')));
    }
    client.on('ready', () => this.check());
    // A resubscribed connection may have missed announcements: listeners reload what they cache.
    subscriber.on('ready', () => {
      if (this.outages > 0) for (const listener of this.upListeners) listener();
    });
  }

  /** Called by whatever saw a command fail: from here on, Redis is not waited on until a ping answers. */
  failed(error: unknown): void {
    if (this.stopped) return;
    if (this.up) {
      this.up = false;
      this.outages++;
      warn('Redis unreachable or slow: limits, sessions and balances fall back to this node until it answers', {
        err: String(error),
      });
      for (const listener of this.downListeners) listener();
    }
    if (!this.probe) {
      this.probe = setInterval(() => this.check(), 500);
      this.probe.unref();
    }
  }

  /** Counts an answer given from memory because Redis could not be used. */
  fellBack(): void {
    this.fallbacks++;
  }

  onDown(listener: Listener): void {
    this.downListeners.push(listener);
  }

  /** Called when Redis answers again after an outage (and when the subscriber reconnected). */
  onUp(listener: Listener): void {
    this.upListeners.push(listener);
  }

  stop(): void {
    this.stopped = true;
    if (this.probe) clearInterval(this.probe);
  }

  private check(): void {
    if (this.up || this.stopped || this.client.status !== 'ready') return;
    this.client.ping().then(
      () => {
        if (this.up || this.stopped) return;
        this.up = true;
        if (this.probe) clearInterval(this.probe);
        this.probe = null;
        warn('Redis answers again: shared limits, sessions and balances resume');
        for (const listener of this.upListeners) listener();
      },
      () => {},
    );
  }
}
