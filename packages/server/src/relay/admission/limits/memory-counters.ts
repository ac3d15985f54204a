import { ADMITTED, type LimitCheck, type LimitCounters, unseeded } from './counters.js';

interface Counter {
  value: number;
  expiresAt: number;
}

/** Counters that answer at once. */
export interface MemoryCounters extends LimitCounters {
  take(checks: readonly LimitCheck[], now: number): number;
  read(key: string, now: number): number;
}

/** One node's counters: exact for a single node (every step is synchronous, so concurrent requests cannot race). */
export function memoryCounters(): MemoryCounters {
  const counters = new Map<string, Counter>();
  const slots = new Map<string, Map<string, number>>();
  let lastSweep = 0;

  const counter = (key: string, now: number): Counter | undefined => {
    const found = counters.get(key);
    if (found && found.expiresAt <= now) {
      counters.delete(key);
      return undefined;
    }
    return found;
  };
  const leases = (key: string, now: number): Map<string, number> => {
    let held = slots.get(key);
    if (!held) {
      held = new Map();
      slots.set(key, held);
    }
    for (const [lease, expiresAt] of held) if (expiresAt <= now) held.delete(lease);
    return held;
  };
  // Windows of callers who stopped calling would otherwise stay forever.
  const sweep = (now: number) => {
    if (now - lastSweep < 60_000) return;
    lastSweep = now;
    for (const [key, found] of counters) if (found.expiresAt <= now) counters.delete(key);
    for (const key of slots.keys()) if (leases(key, now).size === 0) slots.delete(key);
  };
  /** ADMITTED, or why not: the check refused (its index) or its counter waits for a seed. */
  const verdict = (check: LimitCheck, index: number, now: number): number => {
    if (check.type === 'slot') return leases(check.key, now).size < check.limit ? ADMITTED : index;
    const used = counter(check.key, now)?.value ?? check.seed;
    if (used === null) return unseeded(index);
    return used + check.amount <= check.limit || (check.allowFirst && used <= 0) ? ADMITTED : index;
  };

  return {
    take(checks, now) {
      sweep(now);
      for (const [index, check] of checks.entries()) {
        const answer = verdict(check, index, now);
        if (answer !== ADMITTED) return answer;
      }
      for (const check of checks) {
        if (check.type === 'slot') {
          leases(check.key, now).set(check.lease, check.expiresAt);
          continue;
        }
        const found = counter(check.key, now);
        if (found) found.value += check.amount;
        // Every seedless counter was found above (verdict), so the seed is known here.
        else counters.set(check.key, { value: (check.seed ?? 0) + check.amount, expiresAt: now + check.ttlMs });
      }
      return ADMITTED;
    },
    add(key, delta, createTtlMs, now) {
      const found = counter(key, now);
      if (found) found.value += delta;
      else if (createTtlMs !== null) counters.set(key, { value: delta, expiresAt: now + createTtlMs });
    },
    release(key, lease) {
      slots.get(key)?.delete(lease);
    },
    read(key, now) {
      return counter(key, now)?.value ?? 0;
    },
  };
}
