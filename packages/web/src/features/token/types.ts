// The answer shapes are declared once in @gateway/shared; this console keeps its own names for them.
import type {
  CreatedTokenView as CreatedToken,
  TokenView as Token,
  UserGroupsView as UserGroups,
} from '@gateway/shared';

export type { CreatedToken, Token, UserGroups };

import type { TokenLimitsInput } from '../../components/limits/limit-types';

/** The editable fields, as POST and PUT /api/token/ take them. */
export interface TokenPayload extends TokenLimitsInput {
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

export interface TokenListQuery {
  page: number;
  pageSize: number;
  keyword: string;
  token: string;
}

/** How a key is shown and copied everywhere: with the family's `sk-` prefix. */
export function displayKey(key: string): string {
  return key.startsWith('sk-') ? key : `sk-${key}`;
}

/** `sk-AbCd…WxYz`: enough to tell tokens apart in a list without putting the secret on screen. */
export function maskKey(key: string): string {
  if (key.length <= 8) return displayKey(key);
  return `sk-${key.slice(0, 4)}…${key.slice(-4)}`;
}
