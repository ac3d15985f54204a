/** A redemption code as the admin endpoints return it (the key in full: handing codes out is the admin's job). */
export interface Redemption {
  id: number;
  user_id: number;
  /** 32 characters. */
  key: string;
  /** 1 unused, 2 disabled, 3 used (RedemptionStatus). */
  status: number;
  name: string;
  quota: number;
  created_time: number;
  redeemed_time: number;
  /** 0: nobody has redeemed it. */
  used_user_id: number;
  /** Unix seconds; 0 never expires. */
  expired_time: number;
}

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
