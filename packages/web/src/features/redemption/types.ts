// The answer shapes are declared once in @gateway/shared; this console keeps its own names for them.
import type { RedemptionView as Redemption } from '@gateway/shared';

export type { Redemption };

/** The editable fields, as POST and PUT /api/redemption/ take them. */
export interface RedemptionInput {
  name: string;
  quota: number;
  /** 0 never expires. */
  expired_time: number;
}

export interface RedemptionListQuery {
  page: number;
  pageSize: number;
  keyword: string;
}

/** `AbCdEf…WxYz`: enough to tell codes apart without putting a redeemable secret on screen. */
export function maskRedemptionKey(key: string): string {
  if (key.length <= 10) return key;
  return `${key.slice(0, 6)}…${key.slice(-4)}`;
}

/** A code that can still be redeemed, but whose expiry has passed. */
export function isExpired(code: Pick<Redemption, 'expired_time'>, nowSeconds = Date.now() / 1000): boolean {
  return code.expired_time !== 0 && code.expired_time < nowSeconds;
}
