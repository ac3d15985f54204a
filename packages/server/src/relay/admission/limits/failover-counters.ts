import type { RedisHealth } from '../../../cache/redis-health.js';
import { ADMITTED, type LimitCheck, type LimitCounters, type Seeder } from './counters.js';
import type { MemoryCounters } from './memory-counters.js';
import type { SharedCounters } from './redis-counters.js';

/** A counter this node moved in its own memory while Redis was away, to be handed to Redis when it answers. */
interface Missed {
  delta: number;
  /** Wall-clock ms until which a counter created from this lives; null: only an existing counter is moved. */
  until: number | null;
  /** A budget: rebuilt from the database when Redis does not have it. */
  seeder?: Seeder;
}

/**
 * Redis counters that fall back to this node's memory while Redis is down or slow (or was down at start): a
 * request is then held to the limits on this node alone (each node counts its own share, so a cluster admits up
 * to limit × nodes for that while), and never waits longer than the command timeout.
 *
 * Each outage starts from empty memory, so nothing counted before it (which Redis has counted since) is trusted:
 * budgets are seeded from the database again, windows start at 0. What the node counts meanwhile is handed to
 * Redis as soon as it answers, before anything else is sent: added to the counters Redis has, windows it lacks are
 * created with that count, and budgets it lacks are seeded at once from the database and this node's spends, so
 * no other node seeds them without those. A step that fails is handed over again after the next recovery (one
 * that timed out may have run: counting twice only refuses early). Concurrency leases taken meanwhile are not
 * handed over; they end with their requests. Settling and releasing go to both sides, so a count or a lease taken
 * on either side is corrected wherever it lives.
 */
export function failoverCounters(
  shared: SharedCounters,
  newLocal: () => MemoryCounters,
  health: RedisHealth,
): LimitCounters {
  let local = newLocal();
  let missed = new Map<string, Missed>();

  const note = (key: string, delta: number, until: number | null, seeder?: Seeder) => {
    const found = missed.get(key);
    if (!found) {
      missed.set(key, { delta, until, seeder });
      return;
    }
    found.delta += delta;
    if (until !== null) found.until = Math.max(found.until ?? 0, until);
    found.seeder ??= seeder;
  };
  const takeLocally = (checks: readonly LimitCheck[], now: number) => {
    const answer = local.take(checks, now);
    if (answer !== ADMITTED) return answer;
    for (const check of checks) {
      if (check.type === 'counter') note(check.key, check.amount, Date.now() + check.ttlMs, check.seeder);
    }
    return answer;
  };
  const fallback = <T>(error: unknown, answer: () => T): T => {
    health.failed(error);
    health.fellBack();
    return answer();
  };
  const handOver = () => {
    if (!health.up || missed.size === 0) return;
    const handed = missed;
    missed = new Map();
    const now = Date.now();
    for (const [key, entry] of handed) {
      const ttlMs = entry.until === null ? 1 : entry.until - now;
      if (ttlMs <= 0) continue;
      const created = entry.seeder || entry.until === null ? null : entry.delta;
      shared.restore(key, entry.delta, created, ttlMs).then(
        (restored) => {
          // Should this fail (the database, or Redis again), the budget's next request seeds it the same way.
          if (!restored && entry.seeder) entry.seeder((seed) => shared.restore(key, 0, seed, ttlMs)).catch(() => {});
        },
        (error: unknown) => {
          note(key, entry.delta, entry.until, entry.seeder);
          health.failed(error);
        },
      );
    }
  };
  health.onDown(() => {
    local = newLocal();
  });
  // Runs in the same tick as Redis is seen up again, so these steps reach Redis before any request's.
  health.onUp(handOver);

  return {
    take(checks, now) {
      if (!health.up) {
        health.fellBack();
        return takeLocally(checks, now);
      }
      return (shared.take(checks, now) as Promise<number>).catch((error) =>
        fallback(error, () => takeLocally(checks, now)),
      );
    },
    add(key, delta, createTtlMs, now) {
      local.add(key, delta, createTtlMs, now);
      if (health.up) shared.add(key, delta, createTtlMs, now);
      else if (delta !== 0) note(key, delta, createTtlMs === null ? null : Date.now() + createTtlMs);
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
