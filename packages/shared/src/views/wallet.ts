// Wallet answers: the top-up offer and the top-up history (`/api/user/topup/…`).

/** `GET /api/user/topup/info`. */
export interface TopUpInfoView {
  enable_online_topup: boolean;
  min_topup: number;
  price: number;
  amount_options: number[];
  /** Amount → price factor (0.9 = 10% off). */
  discount: Record<string, number>;
  /** Stripe Checkout is set up (secret key, webhook secret and price id filled in). */
  enable_stripe_topup: boolean;
  stripe_min_topup: number;
  /** Creem is set up (API key, webhook secret and at least one product). */
  enable_creem_topup: boolean;
  /**
   * Creem can sell subscription plans (API key and webhook secret; each plan names its own product, so no top-up
   * product is needed). Not in the family's answer: its console offers Creem for plans only with top-up products.
   */
  enable_creem_subscription?: boolean;
  /** The `CreemProducts` option text, as the family sends it (parse with `creemProductsFrom`). */
  creem_products: string;
}

/** One row of `GET /api/user/topup/self`: an online order (any state) or a redeemed code. */
export interface TopUpView {
  id: number;
  /** Units of credit for epay and Stripe orders; quota for Creem orders and redeemed codes. */
  amount: number;
  /** Money paid (0 for codes). */
  money: number;
  trade_no: string;
  /** The gateway type (alipay, wxpay, …), `stripe`, `creem` or `redemption`. */
  payment_method: string;
  /** Who took the payment: `epay`, `stripe`, `creem` ('' on rows written before the column existed). */
  payment_provider: string;
  create_time: number;
  complete_time: number;
  status: 'pending' | 'success' | 'failed' | 'expired' | string;
}

/** One day of `GET /api/user/checkin`'s `stats.records` (the family's answer shape). */
export interface CheckinRecordView {
  /** YYYY-MM-DD in the server's time zone. */
  checkin_date: string;
  quota_awarded: number;
}

/** `GET /api/user/checkin?month=YYYY-MM`: the settings and the caller's check-ins (the family's shape). */
export interface CheckinStatusView {
  enabled: boolean;
  min_quota: number;
  max_quota: number;
  stats: {
    /** Quota all the caller's check-ins ever brought. */
    total_quota: number;
    total_checkins: number;
    /** Check-ins in the asked month. */
    checkin_count: number;
    checked_in_today: boolean;
    /** The asked month's check-ins, newest first. */
    records: CheckinRecordView[];
    /** Ours: today in the server's time zone (YYYY-MM-DD), so the calendar marks the server's day. */
    today: string;
    /** Ours: days in a row up to today (or up to yesterday while today is not checked in yet). */
    streak: number;
  };
}

/** `POST /api/user/checkin`'s data (the family's shape). */
export interface CheckinResultView {
  quota_awarded: number;
  checkin_date: string;
}
