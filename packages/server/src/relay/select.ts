/** A channel as the selector sees it. */
export interface Candidate {
  id: number;
  priority: number;
  weight: number;
}

/**
 * Weighted random pick inside one priority tier (family rules): all weights 0 → equal chances; an average weight
 * below 10 is scaled ×100 so small integer weights still spread traffic smoothly; otherwise proportional.
 */
function weightedPick<T extends Candidate>(tier: T[], random: () => number): T {
  if (tier.length === 1) return tier[0]!;
  const total = tier.reduce((sum, candidate) => sum + Math.max(0, candidate.weight), 0);
  if (total === 0) return tier[Math.floor(random() * tier.length)]!;
  const scale = total / tier.length < 10 ? 100 : 1;
  let point = random() * total * scale;
  for (const candidate of tier) {
    point -= Math.max(0, candidate.weight) * scale;
    if (point < 0) return candidate;
  }
  return tier.at(-1)!;
}

/**
 * Picks a channel for attempt `attempt` (0 = first try). Priorities form tiers, highest first; attempt n starts at
 * tier n (the last tier repeats). Channels that already failed in this request are never picked again: if the
 * tier has none left, lower tiers are tried, then higher ones, so one bad channel never fails a whole group.
 */
export function pickChannel<T extends Candidate>(
  candidates: readonly T[],
  attempt: number,
  failed: ReadonlySet<number> = new Set(),
  random: () => number = Math.random,
): T | undefined {
  const usable = candidates.filter((candidate) => !failed.has(candidate.id));
  if (usable.length === 0) return undefined;
  const priorities = [...new Set(candidates.map((candidate) => candidate.priority))].sort((a, b) => b - a);
  const start = Math.min(attempt, priorities.length - 1);
  const order = [...priorities.slice(start), ...priorities.slice(0, start).reverse()];
  for (const priority of order) {
    const tier = usable.filter((candidate) => candidate.priority === priority);
    if (tier.length > 0) return weightedPick(tier, random);
  }
  return undefined;
}
