import { isSecretOptionKey } from '@gateway/shared';
import type { ChannelRow, RedemptionRow, UserRow } from '../../db/schema.js';
import type { ChannelWriter } from '../channels/channel-writer.js';
import { type FieldChange, fieldDiff, maskValue, type Snapshot } from './field-diff.js';

// Per-entity rules for the audit diff: which columns are secrets and which the system changes by itself.

const USER_SECRETS = new Set(['password', 'access_token']);
const USER_SYSTEM = new Set([
  'id',
  'created_at',
  'last_login_at',
  'used_quota',
  'request_count',
  'aff_count',
  'aff_quota',
  'aff_history_quota',
]);

export function userChanges(before: UserRow | null, after: UserRow | null): FieldChange[] {
  return fieldDiff(before, after, { secret: USER_SECRETS, ignore: USER_SYSTEM });
}

const CHANNEL_SECRETS = new Set(['key']);
const CHANNEL_SYSTEM = new Set([
  'id',
  'created_time',
  'test_time',
  'response_time',
  'used_quota',
  'balance',
  'balance_updated_time',
]);

/**
 * Channel keys are stored sealed with a fresh nonce on every save, so the sealed texts always differ: the keys are
 * compared opened, and masked in the result like any secret.
 */
export function channelChanges(
  writer: ChannelWriter,
  before: ChannelRow | null,
  after: ChannelRow | null,
): FieldChange[] {
  const opened = (row: ChannelRow | null) => (row ? { ...row, key: writer.key(row) } : null);
  return fieldDiff(opened(before), opened(after), { secret: CHANNEL_SECRETS, ignore: CHANNEL_SYSTEM });
}

// A redemption code is a bearer credential: whoever reads it can redeem it.
const REDEMPTION_SECRETS = new Set(['key']);
const REDEMPTION_SYSTEM = new Set(['id', 'created_time']);

export function redemptionChanges(before: RedemptionRow | null, after: RedemptionRow | null): FieldChange[] {
  return fieldDiff(before, after, { secret: REDEMPTION_SECRETS, ignore: REDEMPTION_SYSTEM });
}

function jsonObject(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * An option's change. Secret options (the family's *Secret / *Token / *Key rule) are masked. Prices and ratios are
 * JSON maps of thousands of entries: they are compared entry by entry (`GroupRatio.vip: 1 → 2`), so the row says
 * which price changed instead of holding two copies of the whole map.
 */
export function optionChanges(key: string, before: string, after: string): FieldChange[] {
  if (before === after) return [];
  if (isSecretOptionKey(key)) return [{ field: key, before: maskValue(before), after: maskValue(after) }];
  const [oldMap, newMap] = [jsonObject(before), jsonObject(after)];
  if (oldMap && newMap) return fieldDiff(oldMap, newMap, { prefix: `${key}.` });
  return [{ field: key, before, after }];
}

const CUSTOM_OAUTH_SECRETS = new Set(['client_secret']);
const CUSTOM_OAUTH_SYSTEM = new Set(['created_at', 'updated_at']);

/** A custom sign-in provider's settings; its client secret only as "changed" (a fresh seal differs each time). */
export function customOAuthChanges(before: Snapshot | null, after: Snapshot | null): FieldChange[] {
  return fieldDiff(before, after, { secret: CUSTOM_OAUTH_SECRETS, ignore: CUSTOM_OAUTH_SYSTEM });
}
