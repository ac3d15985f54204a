import type { TokenLimits, TokenLimitsInput } from '../limits/types';

/** A token as `GET /api/token/...` returns it to its owner. `key` has no `sk-` prefix on the wire. */
export interface Token extends Partial<TokenLimits> {
  id: number;
  user_id: number;
  key: string;
  /** 1 enabled, 2 disabled, 3 expired, 4 exhausted (TokenStatus). */
  status: number;
  name: string;
  created_time: number;
  accessed_time: number;
  /** Unix seconds; -1 never expires. */
  expired_time: number;
  remain_quota: number;
  unlimited_quota: boolean;
  model_limits_enabled: boolean;
  /** Comma string. */
  model_limits: string;
  /** One IP or CIDR per line. */
  allow_ips: string;
  used_quota: number;
  /** '' means the owner's own group. */
  group: string;
  /** Comma string, in try order; '' = none of its own (the group's list applies). */
  fallback_models?: string;
}

/** The editable fields, as POST and PUT /api/token/ take them. */
export interface TokenInput extends TokenLimitsInput {
  name: string;
  remain_quota: number;
  expired_time: number;
  unlimited_quota: boolean;
  model_limits_enabled: boolean;
  model_limits: string;
  allow_ips: string;
  group: string;
  fallback_models: string;
}

export interface CreatedToken {
  name: string;
  key: string;
}

export interface TokenListQuery {
  page: number;
  pageSize: number;
  keyword: string;
  token: string;
}

/** `GET /api/user/self/groups`: group name → description and price ratio. */
export type UserGroups = Record<string, { desc: string; ratio: number }>;

/** How a key is shown and copied everywhere: with the family's `sk-` prefix. */
export function displayKey(key: string): string {
  return key.startsWith('sk-') ? key : `sk-${key}`;
}

/** `sk-AbCd…WxYz`: enough to tell tokens apart in a list without putting the secret on screen. */
export function maskKey(key: string): string {
  if (key.length <= 8) return displayKey(key);
  return `sk-${key.slice(0, 4)}…${key.slice(-4)}`;
}
