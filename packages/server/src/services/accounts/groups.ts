import type { OptionsStore } from '../../cache/options-store.js';

export interface GroupInfo {
  desc: string;
  ratio: number;
}

/**
 * Groups a user may put on a token: the admin's `UserUsableGroups` plus the user's own group, which is always
 * usable (family rule). The ratio comes from `GroupRatio` (1 when missing).
 */
export function usableGroups(options: OptionsStore, userGroup: string): Record<string, GroupInfo> {
  const usable = options.json<Record<string, string>>('UserUsableGroups') ?? {};
  const ratios = options.json<Record<string, number>>('GroupRatio') ?? {};
  const result: Record<string, GroupInfo> = {};
  for (const [group, desc] of Object.entries(usable)) result[group] = { desc, ratio: ratios[group] ?? 1 };
  if (userGroup && !result[userGroup]) result[userGroup] = { desc: userGroup, ratio: ratios[userGroup] ?? 1 };
  return result;
}

export function canUseGroup(options: OptionsStore, userGroup: string, group: string): boolean {
  return group === '' || group === userGroup || Object.hasOwn(usableGroups(options, userGroup), group);
}

/** Every group name the admin has priced: what `GET /api/group/` lists. */
export function allGroups(options: OptionsStore): string[] {
  return Object.keys(options.json<Record<string, number>>('GroupRatio') ?? {});
}
