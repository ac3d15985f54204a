import { Role, UserStatus } from '@gateway/shared';

/** Role tags (spec 000 §4): anything else is an unknown identity. */
export const ROLE_TAGS: Record<number, { color: string; labelKey: string }> = {
  [Role.Common]: { color: 'blue', labelKey: 'users.role_common' },
  [Role.Admin]: { color: 'gold', labelKey: 'users.role_admin' },
  [Role.Root]: { color: 'orange', labelKey: 'users.role_root' },
};
export const UNKNOWN_ROLE = { color: 'default', labelKey: 'users.role_unknown' };

/** Status tags (spec 000 §4): 1 active, 2 banned, 3 a further disabled-type state; others unknown. */
export const STATUS_TAGS: Record<number, { color: string; labelKey: string }> = {
  [UserStatus.Enabled]: { color: 'green', labelKey: 'users.status_enabled' },
  [UserStatus.Disabled]: { color: 'red', labelKey: 'users.status_banned' },
  [UserStatus.Frozen]: { color: 'volcano', labelKey: 'users.status_frozen' },
};
export const UNKNOWN_STATUS = { color: 'default', labelKey: 'users.status_unknown' };

/** Group tag colour by price ratio (spec 000 §9): above 5 red, above 3 orange, above 1 blue, otherwise green. */
export function groupRatioColor(ratio: number | undefined): string {
  if (ratio === undefined || !Number.isFinite(ratio)) return 'default';
  if (ratio > 5) return 'red';
  if (ratio > 3) return 'orange';
  if (ratio > 1) return 'blue';
  return 'green';
}

/** The `GroupRatio` option is JSON text (group → ratio); anything unreadable gives no ratios, not an error. */
export function parseGroupRatios(text: string | undefined): Record<string, number> {
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const ratios: Record<string, number> = {};
    for (const [name, value] of Object.entries(parsed)) {
      const ratio = Number(value);
      if (Number.isFinite(ratio)) ratios[name] = ratio;
    }
    return ratios;
  } catch {
    return {};
  }
}
