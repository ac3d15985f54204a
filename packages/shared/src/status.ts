import type { CustomOAuthLoginInfo } from './custom-oauth/views.js';

/** The public status object (`GET /api/status`). Every visitor gets it, so it never carries a secret. */
export interface PublicStatus {
  version: string;
  start_time: number;
  setup: boolean;
  system_name: string;
  logo: string;
  footer_html: string;
  server_address: string;
  quota_per_unit: number;
  display_in_currency: boolean;
  display_token_stat: boolean;
  enable_drawing: boolean;
  enable_task: boolean;
  enable_data_export: boolean;
  data_export_default_time: string;
  default_collapse_sidebar: boolean;
  mj_notify_enabled: boolean;
  chats: unknown;
  chat_link: string;
  chat_link2: string;
  docs_link: string;
  top_up_link: string;
  price: number;
  min_topup: number;
  email_verification: boolean;
  turnstile_check: boolean;
  turnstile_site_key: string;
  github_oauth: boolean;
  github_client_id: string;
  oidc_enabled: boolean;
  /** The enabled custom OAuth / OIDC providers, a sign-in button each (no secrets). */
  custom_oauth_providers?: CustomOAuthLoginInfo[];
  oidc_client_id: string;
  oidc_authorization_endpoint: string;
  linuxdo_oauth: boolean;
  linuxdo_client_id: string;
  wechat_login: boolean;
  wechat_qrcode: string;
  telegram_oauth: boolean;
  telegram_bot_name: string;
  register_enabled: boolean;
  password_login_enabled: boolean;
  password_register_enabled: boolean;
  self_use_mode_enabled: boolean;
  demo_site_enabled: boolean;
  /** The family's console shows its online top-up form only with this (Epay address, id and key filled in). */
  enable_online_topup: boolean;
  /** Money per unit of credit through Stripe, and whether Stripe or Creem top-up is set up. */
  stripe_unit_price: number;
  enable_stripe_topup: boolean;
  enable_creem_topup: boolean;
  /** Balances and logs are always written in batches here (the family's BATCH_UPDATE_ENABLED). */
  enable_batch_update: boolean;
  /** Sign-in methods this gateway does not offer, always false, so the family's console hides them. */
  discord_oauth: boolean;
  checkin_enabled: boolean;
  /** Passkey sign-in (the family's passkey_* keys, from the passkey.* options). */
  passkey_login: boolean;
  passkey_display_name: string;
  passkey_rp_id: string;
  passkey_origins: string;
  passkey_allow_insecure: boolean;
  passkey_user_verification: string;
  passkey_attachment: string;
  /** Amounts are shown in US dollars (the family's quota_display_type "USD") when display_in_currency is on. */
  quota_display_type: 'USD' | 'TOKENS';
}

export interface SetupState {
  status: boolean;
  root_init: boolean;
  database_type: 'sqlite' | 'postgres' | 'mysql';
  /** Ours: `POST /api/setup` needs the one-time setup token from the server's log (or SETUP_TOKEN). */
  setup_token_required: boolean;
}

/** The user object the console stores after sign-in (never a password hash or access token). */
export interface SessionUser {
  id: number;
  username: string;
  display_name: string;
  role: number;
  status: number;
  group: string;
}

/** `GET /api/user/self`: the caller's own record (never a password hash or access token). */
export interface SelfUser extends SessionUser {
  email: string;
  github_id: string;
  oidc_id: string;
  wechat_id: string;
  telegram_id: string;
  linux_do_id: string;
  quota: number;
  used_quota: number;
  request_count: number;
  aff_code: string | null;
  aff_count: number;
  aff_quota: number;
  aff_history_quota: number;
  inviter_id: number;
  setting: string | null;
  remark: string;
  created_at: number;
  last_login_at: number;
}
