// Redemption-code answers of the admin API (`/api/redemption/…`).

/** A redemption code as the admin endpoints return it (the key in full: handing codes out is the admin's job). */
export interface RedemptionView {
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
