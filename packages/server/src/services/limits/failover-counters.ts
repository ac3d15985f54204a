import type { RedisHealth } from '../../cache/redis-health.js';
import type { LimitCounters } from './counters.js';

/**
 * Redis counters that fall back to this node's memory while Redis is down or slow: a request is then held to the
 * limits on this node alone (each node counts its own share, so a cluster admits up to limit × nodes for that
 * while), and never waits longer than the command timeout. Settling and releasing go to both, so a count or a
 * lease taken on either side is corrected wherever it lives. Back up, counting is shared and exact again; a
 * window that began during the outage only ever counts what Redis saw.
 */
export function failoverCounters(shared: LimitCounters, local: LimitCounters, health: RedisHealth): LimitCounters {
  const fallback = <T>(error: unknown, answer: () => T): T => {
    health.failed(error);
    health.fellBack();
    return answer();
  };
  return {
    take(checks, now) {
      if (!health.up) {
        health.fellBack();
        return local.take(checks, now);
      }
      return (shared.take(checks, now) as Promise<number>).catch((error) =>
        fallback(error, () => local.take(checks, now)),
      );
    },
    add(key, delta, createTtlMs, now) {
      local.add(key, delta, createTtlMs, now);
      if (health.up) shared.add(key, delta, createTtlMs, now);
    },
    release(key, lease) {
      local.release(key, lease);
      if (health.up) shared.release(key, lease);
    },
    read(key, now) {
      if (!health.up) return local.read(key, now);
      return (shared.read(key, now) as Promise<number>).catch((error) => fallback(error, () => local.read(key, now)));
    },
  };
}
