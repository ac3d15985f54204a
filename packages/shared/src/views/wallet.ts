// Wallet answers: the top-up offer and the top-up history (`/api/user/topup/…`).

/** `GET /api/user/topup/info`. */
export interface TopUpInfoView {
  enable_online_topup: boolean;
  min_topup: number;
  price: number;
  amount_options: number[];
  /** Amount → price factor (0.9 = 10% off). */
  discount: Record<string, number>;
}

/** One row of `GET /api/user/topup/self`: an online order (any state) or a redeemed code. */
export interface TopUpView {
  id: number;
  /** Units of credit for online orders; quota for redeemed codes. */
  amount: number;
  /** Money paid (0 for codes). */
  money: number;
  trade_no: string;
  /** The gateway type (alipay, wxpay, …) or `redemption`. */
  payment_method: string;
  create_time: number;
  complete_time: number;
  status: 'pending' | 'success' | 'failed' | 'expired' | string;
}
