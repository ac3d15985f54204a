import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

// Row types of every table. Times are unix seconds unless a name says ms. Booleans are stored as 0/1 integers so
// the three dialects agree; the API layer turns them into true/false where the family's JSON has booleans.

type Id = Generated<number>;
type WithDefault<T> = ColumnType<T, T | undefined, T>;

export interface UsersTable {
  id: Id;
  username: string;
  password: WithDefault<string>;
  display_name: WithDefault<string>;
  role: WithDefault<number>;
  status: WithDefault<number>;
  email: WithDefault<string>;
  github_id: WithDefault<string>;
  oidc_id: WithDefault<string>;
  wechat_id: WithDefault<string>;
  telegram_id: WithDefault<string>;
  linux_do_id: WithDefault<string>;
  access_token: WithDefault<string | null>;
  quota: WithDefault<number>;
  used_quota: WithDefault<number>;
  request_count: WithDefault<number>;
  group: WithDefault<string>;
  aff_code: WithDefault<string | null>;
  aff_count: WithDefault<number>;
  aff_quota: WithDefault<number>;
  aff_history_quota: WithDefault<number>;
  inviter_id: WithDefault<number>;
  setting: WithDefault<string | null>;
  remark: WithDefault<string>;
  created_at: WithDefault<number>;
  last_login_at: WithDefault<number>;
  deleted_at: WithDefault<number | null>;
  // Request limits (migration 0004): null = none of its own, 0 = unlimited.
  rpm_limit: WithDefault<number | null>;
  tpm_limit: WithDefault<number | null>;
  concurrency_limit: WithDefault<number | null>;
}

export interface TokensTable {
  id: Id;
  user_id: number;
  key: string;
  status: WithDefault<number>;
  name: WithDefault<string>;
  created_time: WithDefault<number>;
  accessed_time: WithDefault<number>;
  expired_time: WithDefault<number>;
  remain_quota: WithDefault<number>;
  unlimited_quota: WithDefault<number>;
  model_limits_enabled: WithDefault<number>;
  model_limits: WithDefault<string | null>;
  allow_ips: WithDefault<string | null>;
  used_quota: WithDefault<number>;
  group: WithDefault<string>;
  deleted_at: WithDefault<number | null>;
  // Request limits and the period budget (migration 0004).
  rpm_limit: WithDefault<number | null>;
  tpm_limit: WithDefault<number | null>;
  concurrency_limit: WithDefault<number | null>;
  /** '' (none), day, week or month. */
  budget_period: WithDefault<string>;
  budget_quota: WithDefault<number>;
  budget_used: WithDefault<number>;
  /** Unix ms of the period budget_used belongs to. */
  budget_period_start: WithDefault<number>;
  /** Comma list of models tried in order when a request's model fails (migration 0005); null: none. */
  fallback_models: WithDefault<string | null>;
}

export interface ChannelsTable {
  id: Id;
  type: WithDefault<number>;
  key: string;
  openai_organization: WithDefault<string | null>;
  test_model: WithDefault<string | null>;
  status: WithDefault<number>;
  name: WithDefault<string>;
  weight: WithDefault<number>;
  created_time: WithDefault<number>;
  test_time: WithDefault<number>;
  response_time: WithDefault<number>;
  base_url: WithDefault<string | null>;
  other: WithDefault<string | null>;
  balance: WithDefault<number>;
  balance_updated_time: WithDefault<number>;
  models: WithDefault<string | null>;
  group: WithDefault<string>;
  used_quota: WithDefault<number>;
  model_mapping: WithDefault<string | null>;
  status_code_mapping: WithDefault<string | null>;
  priority: WithDefault<number>;
  auto_ban: WithDefault<number>;
  other_info: WithDefault<string | null>;
  tag: WithDefault<string | null>;
  setting: WithDefault<string | null>;
  param_override: WithDefault<string | null>;
  header_override: WithDefault<string | null>;
  remark: WithDefault<string | null>;
  max_input_tokens: WithDefault<number>;
  /** The family's "other settings" JSON (migration 0014): the upstream model watch. */
  settings: WithDefault<string | null>;
}

export interface AbilitiesTable {
  group: string;
  model: string;
  channel_id: number;
  enabled: WithDefault<number>;
  priority: WithDefault<number>;
  weight: WithDefault<number>;
  tag: WithDefault<string | null>;
}

export interface RedemptionsTable {
  id: Id;
  user_id: WithDefault<number>;
  key: string;
  status: WithDefault<number>;
  name: WithDefault<string>;
  quota: WithDefault<number>;
  created_time: WithDefault<number>;
  redeemed_time: WithDefault<number>;
  used_user_id: WithDefault<number>;
  expired_time: WithDefault<number>;
  deleted_at: WithDefault<number | null>;
}

export interface LogsTable {
  id: Id;
  user_id: WithDefault<number>;
  created_at: number;
  type: WithDefault<number>;
  content: WithDefault<string | null>;
  username: WithDefault<string>;
  token_name: WithDefault<string>;
  token_id: WithDefault<number>;
  model_name: WithDefault<string>;
  quota: WithDefault<number>;
  prompt_tokens: WithDefault<number>;
  completion_tokens: WithDefault<number>;
  use_time: WithDefault<number>;
  is_stream: WithDefault<number>;
  channel_id: WithDefault<number>;
  channel_name: WithDefault<string>;
  group: WithDefault<string>;
  ip: WithDefault<string>;
  request_id: WithDefault<string>;
  other: WithDefault<string | null>;
}

export interface OptionsTable {
  key: string;
  value: string | null;
}

export interface MidjourneysTable {
  id: Id;
  code: WithDefault<number>;
  user_id: WithDefault<number>;
  action: WithDefault<string>;
  mj_id: WithDefault<string>;
  prompt: WithDefault<string | null>;
  prompt_en: WithDefault<string | null>;
  description: WithDefault<string | null>;
  state: WithDefault<string | null>;
  submit_time: WithDefault<number>;
  start_time: WithDefault<number>;
  finish_time: WithDefault<number>;
  image_url: WithDefault<string | null>;
  video_url: WithDefault<string | null>;
  video_urls: WithDefault<string | null>;
  status: WithDefault<string>;
  progress: WithDefault<string>;
  fail_reason: WithDefault<string | null>;
  channel_id: WithDefault<number>;
  quota: WithDefault<number>;
  buttons: WithDefault<string | null>;
  properties: WithDefault<string | null>;
  created_at: WithDefault<number>;
}

export interface TasksTable {
  id: Id;
  created_at: WithDefault<number>;
  updated_at: WithDefault<number>;
  task_id: string;
  platform: WithDefault<string>;
  user_id: WithDefault<number>;
  group: WithDefault<string>;
  channel_id: WithDefault<number>;
  quota: WithDefault<number>;
  action: WithDefault<string>;
  status: WithDefault<string>;
  fail_reason: WithDefault<string | null>;
  submit_time: WithDefault<number>;
  start_time: WithDefault<number>;
  finish_time: WithDefault<number>;
  progress: WithDefault<string>;
  properties: WithDefault<string | null>;
  private_data: WithDefault<string | null>;
  data: WithDefault<string | null>;
}

export interface TopUpsTable {
  id: Id;
  user_id: number;
  amount: WithDefault<number>;
  money: WithDefault<number>;
  trade_no: string;
  payment_method: WithDefault<string>;
  /** Added by migration 0011: epay, stripe or creem ('' for codes). */
  payment_provider: WithDefault<string>;
  create_time: WithDefault<number>;
  complete_time: WithDefault<number>;
  status: WithDefault<string>;
}

export interface QuotaDataTable {
  id: Id;
  user_id: number;
  username: WithDefault<string>;
  model_name: string;
  created_at: number;
  token_used: WithDefault<number>;
  count: WithDefault<number>;
  quota: WithDefault<number>;
}

export interface SessionsTable {
  id: string;
  user_id: number;
  created_at: number;
  expires_at: number;
}

export interface SetupsTable {
  id: Id;
  version: string;
  initialized_at: number;
}

/** One daily check-in (migration 0008; the family's `checkins`): at most one row per user and day. */
export interface CheckinsTable {
  id: Id;
  user_id: number;
  /** YYYY-MM-DD in the server's time zone. */
  checkin_date: string;
  quota_awarded: number;
  created_at: number | null;
}

/** A subscription plan (migration 0016; the family's `subscription_plans`). Booleans: 0/1 in SQLite. */
export interface SubscriptionPlansTable {
  id: Id;
  title: string;
  subtitle: string | null;
  price_amount: number;
  currency: string;
  duration_unit: string;
  duration_value: number;
  custom_seconds: number;
  enabled: boolean | number | null;
  sort_order: number | null;
  stripe_price_id: string | null;
  creem_product_id: string | null;
  max_purchase_per_user: number | null;
  upgrade_group: string | null;
  total_amount: number;
  quota_reset_period: string | null;
  quota_reset_custom_seconds: number | null;
  allow_balance_pay: boolean | number | null;
  created_at: number | null;
  updated_at: number | null;
}

/** A plan bought through a payment gateway (migration 0016; `subscription_orders`): pending until its webhook. */
export interface SubscriptionOrdersTable {
  id: Id;
  user_id: number | null;
  plan_id: number | null;
  money: number | null;
  trade_no: string | null;
  payment_method: string | null;
  status: string | null;
  create_time: number | null;
  complete_time: number | null;
  provider_payload: string | null;
}

/**
 * A plan a user has (migration 0016; `user_subscriptions`). `amount_used` is what the current period spent; the
 * ledger writes it as an increment in the same transaction as the log rows (billing/ledger.ts).
 */
export interface UserSubscriptionsTable {
  id: Id;
  user_id: number | null;
  plan_id: number | null;
  amount_total: number;
  amount_used: number;
  start_time: number | null;
  end_time: number | null;
  status: string | null;
  source: string | null;
  last_reset_time: number | null;
  next_reset_time: number | null;
  upgrade_group: string | null;
  prev_user_group: string | null;
  created_at: number | null;
  updated_at: number | null;
}

/**
 * One passkey (migration 0010; the family's `passkey_credentials`). Ids and keys in standard base64; the flags are
 * booleans in PostgreSQL and MySQL, 0/1 in SQLite; the times are datetimes (strings in SQLite).
 */
export interface PasskeyCredentialsTable {
  id: Id;
  user_id: number;
  credential_id: string;
  public_key: string;
  attestation_type: string | null;
  aaguid: string | null;
  sign_count: WithDefault<number | null>;
  clone_warning: boolean | number | null;
  user_present: boolean | number | null;
  user_verified: boolean | number | null;
  backup_eligible: boolean | number | null;
  backup_state: boolean | number | null;
  /** JSON array of transports, e.g. ["internal","hybrid"]. */
  transports: string | null;
  attachment: string | null;
  last_used_at: Date | string | null;
  created_at: Date | string | null;
  updated_at: Date | string | null;
  deleted_at: Date | string | null;
  name: string | null;
}

/**
 * A user's two-factor sign-in (migration 0009; the family's `two_fas`). Times are the family's datetimes (gorm's
 * time.Time): written and read through repos/two-fas.ts, which speaks unix seconds to the rest of the code.
 */
export interface TwoFasTable {
  id: Id;
  user_id: number;
  /** The TOTP secret (base32), sealed with the secret box; a family database's plaintext secret opens as it is. */
  secret: string;
  is_enabled: number;
  failed_attempts: number;
  locked_until: unknown;
  last_used_at: unknown;
  created_at: unknown;
  updated_at: unknown;
  deleted_at: unknown;
}

/** One one-time backup code, bcrypt-hashed as the family hashes them (the family's `two_fa_backup_codes`). */
export interface TwoFaBackupCodesTable {
  id: Id;
  user_id: number;
  code_hash: string;
  is_used: number;
  used_at: unknown;
  created_at: unknown;
  deleted_at: unknown;
}

/**
 * A sign-in provider the root added (0015; the family's `custom_oauth_providers`). `enabled` is 1/0 (a family
 * PostgreSQL database's boolean reads back as 1/0). Times are the family's datetimes, like `two_fas`.
 */
export interface CustomOAuthProvidersTable {
  id: Id;
  name: string;
  slug: string;
  icon: string | null;
  enabled: number | null;
  client_id: string | null;
  /** Sealed with the secret box; a family database's plaintext secret opens as it is. Never sent to the console. */
  client_secret: string | null;
  authorization_endpoint: string | null;
  token_endpoint: string | null;
  user_info_endpoint: string | null;
  scopes: string | null;
  user_id_field: string | null;
  username_field: string | null;
  display_name_field: string | null;
  email_field: string | null;
  well_known: string | null;
  auth_style: number | null;
  created_at: unknown;
  updated_at: unknown;
}

/** Which account a custom provider's person is (0015; the family's `user_oauth_bindings`). */
export interface UserOAuthBindingsTable {
  id: Id;
  user_id: number;
  provider_id: number;
  provider_user_id: string;
  created_at: unknown;
}

/** A model vendor of the catalogue (0012; the family's `vendors`). */
export interface VendorsTable {
  id: Id;
  name: string;
  description: string | null;
  icon: string | null;
  status: WithDefault<number>;
  created_time: number | null;
  updated_time: number | null;
  deleted_at: number | null;
}

/** A catalogue model (0012; the family's `models`). Prices are not here: they stay in the ratio options. */
export interface ModelsTable {
  id: Id;
  model_name: string;
  description: string | null;
  icon: string | null;
  tags: string | null;
  vendor_id: number | null;
  endpoints: string | null;
  context_length: WithDefault<number>;
  status: WithDefault<number>;
  sync_official: WithDefault<number>;
  name_rule: WithDefault<number>;
  created_time: number | null;
  updated_time: number | null;
  deleted_at: number | null;
}

/** Which node ran a background job last, and when (migration 0002). */
export interface JobLeasesTable {
  name: string;
  holder: string;
  run_at: number;
}

/**
 * In the log database: the highest main-database `logs.id` copied from the main database `source` (its identity,
 * db/log-transfer.ts). Written in the same transaction as the copied rows, so a row is copied exactly once.
 */
export interface LogTransfersTable {
  source: string;
  last_id: number;
}

/** One admin or root change, or a sign-in attempt (0003_audit_log). `diff` is JSON: [{field, before, after}]. */
export interface AuditLogsTable {
  id: Id;
  created_at: number;
  /** Null for a failed sign-in: nobody is known to be acting. */
  actor_id: number | null;
  actor_username: string | null;
  action: string;
  target_type: string;
  /** Text, because option keys and attempted usernames are targets too. */
  target_id: string;
  ip: string;
  diff: string;
}

/** A relay call's bodies as the client sent and received them, scrubbed and capped (0006_request_bodies). */
export interface RequestBodiesTable {
  id: Id;
  /** The usage log row's `request_id` (X-Oneapi-Request-Id). */
  request_id: string;
  created_at: number;
  request_body: string;
  response_body: string;
}

export interface Database {
  users: UsersTable;
  tokens: TokensTable;
  channels: ChannelsTable;
  abilities: AbilitiesTable;
  redemptions: RedemptionsTable;
  logs: LogsTable;
  options: OptionsTable;
  midjourneys: MidjourneysTable;
  tasks: TasksTable;
  top_ups: TopUpsTable;
  quota_data: QuotaDataTable;
  sessions: SessionsTable;
  setups: SetupsTable;
  checkins: CheckinsTable;
  subscription_plans: SubscriptionPlansTable;
  subscription_orders: SubscriptionOrdersTable;
  user_subscriptions: UserSubscriptionsTable;
  passkey_credentials: PasskeyCredentialsTable;
  two_fas: TwoFasTable;
  two_fa_backup_codes: TwoFaBackupCodesTable;
  custom_oauth_providers: CustomOAuthProvidersTable;
  user_oauth_bindings: UserOAuthBindingsTable;
  vendors: VendorsTable;
  models: ModelsTable;
  job_leases: JobLeasesTable;
  audit_logs: AuditLogsTable;
  request_bodies: RequestBodiesTable;
  /** Only in a separate log database (LOG_SQL_DSN): how far each main database's outbox was copied. */
  log_transfers: LogTransfersTable;
}

export type UserRow = Selectable<UsersTable>;
export type SubscriptionPlanRow = Selectable<SubscriptionPlansTable>;
export type UserSubscriptionRow = Selectable<UserSubscriptionsTable>;
export type SubscriptionOrderRow = Selectable<SubscriptionOrdersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
/** The users columns holding a third-party sign-in's stable id. */
export type BindingColumn = 'github_id' | 'oidc_id' | 'linux_do_id' | 'wechat_id' | 'telegram_id';
export type TokenRow = Selectable<TokensTable>;
export type NewToken = Insertable<TokensTable>;
export type ChannelRow = Selectable<ChannelsTable>;
export type NewChannel = Insertable<ChannelsTable>;
export type ChannelUpdate = Updateable<ChannelsTable>;
export type AbilityRow = Selectable<AbilitiesTable>;
export type RedemptionRow = Selectable<RedemptionsTable>;
export type NewRedemption = Insertable<RedemptionsTable>;
export type LogRow = Selectable<LogsTable>;
export type NewLog = Insertable<LogsTable>;
export type MidjourneyRow = Selectable<MidjourneysTable>;
export type NewMidjourney = Insertable<MidjourneysTable>;
export type TaskRow = Selectable<TasksTable>;
export type NewTask = Insertable<TasksTable>;
export type TopUpRow = Selectable<TopUpsTable>;
export type NewTopUp = Insertable<TopUpsTable>;
export type QuotaDataRow = Selectable<QuotaDataTable>;
export type AuditLogRow = Selectable<AuditLogsTable>;
export type NewAuditLog = Insertable<AuditLogsTable>;
export type NewRequestBody = Insertable<RequestBodiesTable>;
