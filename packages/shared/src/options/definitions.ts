import { CHECKIN_QUOTA_MAX } from '../checkin.js';
import { PASSKEY_ATTACHMENT, PASSKEY_USER_VERIFICATION } from '../passkey/views.js';
import { bool, int, json, num, type OptionDefinition, oneOf, str, url } from './kinds.js';
import {
  DEFAULT_AUDIO_COMPLETION_RATIO,
  DEFAULT_AUDIO_RATIO,
  DEFAULT_CACHE_RATIO,
  DEFAULT_COMPLETION_RATIO,
  DEFAULT_GROUP_RATIO,
  DEFAULT_MODEL_PRICE,
  DEFAULT_MODEL_RATIO,
  DEFAULT_USER_USABLE_GROUPS,
} from './pricing-defaults.js';

/** The upstream error texts that auto-disable a channel by default (family defaults). */
export const DEFAULT_AUTO_DISABLE_KEYWORDS = [
  'Your credit balance is too low',
  'This organization has been disabled.',
  'You exceeded your current quota',
  'Permission denied',
  'The security token included in the request is invalid',
  'Operation not allowed',
  'Your account is not authorized',
].join('\n');

const DEFAULT_CHATS = [
  { 'ChatGPT Next Web': 'https://app.nextchat.dev/#/?settings={"key":"{key}","url":"{address}"}' },
  {
    'Lobe Chat':
      'https://chat-preview.lobehub.com/?settings={"keyVaults":{"openai":{"apiKey":"{key}","baseURL":"{address}/v1"}}}',
  },
];

/**
 * Every option of both spec documents with its default. Keys and defaults follow the family so an imported
 * `options` table means the same thing here.
 */
export const OPTION_DEFINITIONS = {
  // Payment and address
  ServerAddress: url(),
  PayAddress: url(),
  EpayId: str(),
  EpayKey: str(),
  Price: num(7.3, 0),
  MinTopUp: int(1, 1),
  CustomCallbackAddress: url(),
  TopupGroupRatio: json(DEFAULT_GROUP_RATIO, 'number-map'),
  // Quick-pick amounts on the wallet page, and price factors per amount (e.g. {"100": 0.95} = 5% off at 100)
  'payment_setting.amount_options': json([10, 20, 50, 100, 200, 500], 'amount-list'),
  'payment_setting.amount_discount': json({}, 'amount-discounts'),
  // Stripe Checkout: the price (per unit of credit) the checkout charges, the money per unit shown to users
  StripeApiSecret: str(),
  StripeWebhookSecret: str(),
  StripePriceId: str(),
  StripeUnitPrice: num(8, 0),
  StripeMinTopUp: int(1, 1),
  StripePromotionCodesEnabled: bool(false),
  // Creem: fixed products, each crediting its own quota
  CreemApiKey: str(),
  CreemProducts: json([], 'creem-products'),
  CreemTestMode: bool(false),
  CreemWebhookSecret: str(),
  // Login and registration
  PasswordLoginEnabled: bool(true),
  PasswordRegisterEnabled: bool(true),
  EmailVerificationEnabled: bool(false),
  RegisterEnabled: bool(true),
  // Ours: admins (and root) must turn on two-factor sign-in before the admin routes answer them
  AdminTwoFARequired: bool(false),
  // Human check
  TurnstileCheckEnabled: bool(false),
  TurnstileSiteKey: str(),
  TurnstileSecretKey: str(),
  // Third-party sign-in
  GitHubOAuthEnabled: bool(false),
  GitHubClientId: str(),
  GitHubClientSecret: str(),
  LinuxDOOAuthEnabled: bool(false),
  LinuxDOClientId: str(),
  LinuxDOClientSecret: str(),
  WeChatAuthEnabled: bool(false),
  WeChatServerAddress: url(),
  WeChatServerToken: str(),
  WeChatAccountQRCodeImageURL: url(),
  TelegramOAuthEnabled: bool(false),
  TelegramBotToken: str(),
  TelegramBotName: str(),
  // Passkeys (the family's passkey.* settings). Empty rp_id and origins: taken from ServerAddress, else from the
  // address the browser used; origins is a comma list of the origins allowed to sign (e.g. https://a.example).
  'passkey.enabled': bool(false),
  'passkey.rp_display_name': str(),
  'passkey.rp_id': str(),
  'passkey.origins': str(),
  'passkey.allow_insecure_origin': bool(false),
  'passkey.user_verification': oneOf('preferred', PASSKEY_USER_VERIFICATION),
  'passkey.attachment_preference': oneOf('', PASSKEY_ATTACHMENT),
  'oidc.enabled': bool(false),
  'oidc.client_id': str(),
  'oidc.client_secret': str(),
  'oidc.well_known': url(),
  'oidc.authorization_endpoint': url(),
  'oidc.token_endpoint': url(),
  'oidc.user_info_endpoint': url(),
  // E-mail restriction and SMTP
  EmailDomainRestrictionEnabled: bool(false),
  EmailAliasRestrictionEnabled: bool(false),
  EmailDomainWhitelist: str(
    'gmail.com,163.com,126.com,qq.com,outlook.com,hotmail.com,icloud.com,yahoo.com,foxmail.com',
  ),
  SMTPServer: str(),
  SMTPPort: int(587, 1, 65535),
  SMTPAccount: str(),
  SMTPFrom: str(),
  SMTPToken: str(),
  SMTPSSLEnabled: bool(false),
  // Image-fetch worker
  WorkerUrl: url(),
  WorkerValidKey: str(),
  WorkerAllowHttpImageRequestEnabled: bool(false),
  // Content
  Notice: str(),
  SystemName: str('AI Gateway'),
  Logo: str(),
  Footer: str(),
  About: str(),
  HomePageContent: str(),
  TopUpLink: url(),
  'general_setting.docs_link': url(),
  ChatLink: str(),
  ChatLink2: str(),
  Chats: json(DEFAULT_CHATS, 'chats'),
  // Display and general
  QuotaPerUnit: num(500000, 1),
  RetryTimes: int(0, 0, 10),
  DisplayInCurrencyEnabled: bool(true),
  DisplayTokenStatEnabled: bool(true),
  DefaultCollapseSidebar: bool(false),
  DemoSiteEnabled: bool(false),
  SelfUseModeEnabled: bool(false),
  // Drawing and tasks
  DrawingEnabled: bool(true),
  TaskEnabled: bool(true),
  MjNotifyEnabled: bool(false),
  MjAccountFilterEnabled: bool(false),
  MjForwardUrlEnabled: bool(true),
  MjModeClearEnabled: bool(true),
  MjActionCheckSuccessEnabled: bool(true),
  // Sensitive words
  CheckSensitiveEnabled: bool(false),
  CheckSensitiveOnPromptEnabled: bool(true),
  StopOnSensitiveEnabled: bool(true),
  SensitiveWords: str(''),
  StreamCacheQueueLength: int(0, 0),
  // Logs and export
  LogConsumeEnabled: bool(true),
  // Request and response bodies of relay calls, off by default: kept for these groups (a JSON list) and for channels
  // whose setting has "log_bodies": true; each body cut at LogBodiesMaxBytes; 0 days = kept as long as its log.
  LogBodiesGroups: json([], 'string-array'),
  LogBodiesMaxBytes: int(16384, 256, 1048576),
  LogBodiesRetentionDays: int(0, 0, 3650),
  DataExportEnabled: bool(true),
  DataExportInterval: int(5, 1),
  DataExportDefaultTime: oneOf('hour', ['hour', 'day', 'week']),
  // Monitoring
  ChannelDisableThreshold: num(5, 0),
  QuotaRemindThreshold: int(1000, 0),
  AutomaticDisableChannelEnabled: bool(false),
  AutomaticEnableChannelEnabled: bool(false),
  AutomaticDisableKeywords: str(DEFAULT_AUTO_DISABLE_KEYWORDS),
  // Quota
  QuotaForNewUser: int(0, 0),
  PreConsumedQuota: int(500, 0),
  QuotaForInviter: int(0, 0),
  QuotaForInvitee: int(0, 0),
  // Daily check-in (the family's checkin_setting): a signed-in user's reward, drawn once a day from [min, max]
  'checkin_setting.enabled': bool(false),
  'checkin_setting.min_quota': int(1000, 0, CHECKIN_QUOTA_MAX),
  'checkin_setting.max_quota': int(10000, 0, CHECKIN_QUOTA_MAX),
  // Pricing maps
  ModelPrice: json(DEFAULT_MODEL_PRICE, 'number-map'),
  ModelRatio: json(DEFAULT_MODEL_RATIO, 'number-map'),
  CompletionRatio: json(DEFAULT_COMPLETION_RATIO, 'number-map'),
  CacheRatio: json(DEFAULT_CACHE_RATIO, 'number-map'),
  AudioRatio: json(DEFAULT_AUDIO_RATIO, 'number-map'),
  AudioCompletionRatio: json(DEFAULT_AUDIO_COMPLETION_RATIO, 'number-map'),
  // Price sync: publish the four maps above at GET /api/ratio_config for other gateways (off: 403), and where
  // "Sync prices" reads OpenRouter's public model list (a local fake in tests, a mirror behind a firewall).
  ExposeRatioEnabled: bool(false),
  'ratio_sync.openrouter_base_url': url('https://openrouter.ai'),
  GroupRatio: json(DEFAULT_GROUP_RATIO, 'number-map'),
  UserUsableGroups: json(DEFAULT_USER_USABLE_GROUPS, 'string-map'),
  // Rate limits
  ModelRequestRateLimitEnabled: bool(false),
  ModelRequestRateLimitCount: int(0, 0, 100000000),
  ModelRequestRateLimitSuccessCount: int(1000, 1, 100000000),
  ModelRequestRateLimitDurationMinutes: int(1, 0),
  ModelRequestRateLimitGroup: json({}, 'rate-limit-groups'),
  // Per-group defaults of the per-user request limits (limits/fields.ts), e.g. {"default": {"rpm": 60}}.
  GroupLimitDefaults: json({}, 'group-limits'),
  // Model fallback (fallback/fields.ts): group → models tried in order when the requested one fails, e.g.
  // {"default": ["gpt-4o-mini"]}; the statuses that move on to them ('' = 408, 429 and 5xx; never 400).
  GroupFallbackModels: json({}, 'group-fallback'),
  FallbackStatusCodes: str(''),
  // Provider-specific model settings
  // Category → threshold, e.g. {"default": "OFF"}.
  'gemini.safety_settings': json({}, 'gemini-safety'),
  'gemini.version_settings': json({ default: 'v1beta' }, 'string-map'),
  'gemini.supported_imagine_models': json(
    ['gemini-2.0-flash-exp-image-generation', 'gemini-2.0-flash-exp'],
    'string-array',
  ),
  'gemini.thinking_adapter_enabled': bool(false),
  'gemini.thinking_adapter_budget_tokens_percentage': num(0.6, 0.1, 1),
  // Model → header → values, e.g. {"claude-3-7-sonnet-20250219": {"anthropic-beta": ["output-128k-2025-02-19"]}}.
  'claude.model_headers_settings': json({}, 'header-map'),
  'claude.default_max_tokens': json({ default: 8192 }, 'positive-int-map'),
  'claude.thinking_adapter_enabled': bool(true),
  'claude.thinking_adapter_budget_tokens_percentage': num(0.8, 0.1, 1),
  // Claude Code's per-request `x-anthropic-billing-header` system block is left out when a Claude request is
  // converted for another provider, so the conversation's prefix (and the upstream's prompt cache) stays the same.
  'claude.strip_billing_header_enabled': bool(true),
  'global.pass_through_request_enabled': bool(false),
  // Sticky channels (the family's channel affinity): one conversation of a token and model stays on one channel
  // (and key) while it answers, so the upstream's prompt cache keeps hitting (relay/affinity/).
  'channel_affinity_setting.enabled': bool(true),
  'channel_affinity_setting.default_ttl_seconds': int(3600, 1, 604800),
  'channel_affinity_setting.max_entries': int(100000, 1, 1000000),
  // Chat requests sent to the upstream's Responses API (responses-policy.ts); off until enabled.
  'global.chat_completions_to_responses_policy': json({}, 'responses-policy'),
  'general_setting.ping_interval_enabled': bool(false),
  'general_setting.ping_interval_seconds': int(60, 1),
  // Server-side fetches of typed URLs (model lists, balances, webhooks, discovery) refuse private addresses
  // unless this is on; relay traffic to a channel's own base URL is not affected.
  'fetch_setting.allow_private_ip': bool(false),
} satisfies Record<string, OptionDefinition>;

export type OptionKey = keyof typeof OPTION_DEFINITIONS;
export const OPTION_KEYS = Object.keys(OPTION_DEFINITIONS) as OptionKey[];

export function isOptionKey(key: string): key is OptionKey {
  return Object.hasOwn(OPTION_DEFINITIONS, key);
}

/** Family rule: values of keys ending in Secret, Token or Key are never sent back to the console. */
const PUBLIC_KEYS_THAT_LOOK_SECRET = new Set<string>(['TurnstileSiteKey']);
export function isSecretOptionKey(key: string): boolean {
  if (PUBLIC_KEYS_THAT_LOOK_SECRET.has(key)) return false; // the site key is public: /api/status sends it
  return /(Secret|Token|Key|secret|api_key)$/.test(key);
}

/**
 * Values a fresh install (first-run setup creating the root account) writes over the family's defaults, so traffic
 * keeps flowing out of the box: a failed call is tried on up to 3 other channels, and a channel whose key the
 * upstream refuses is taken out of rotation (root is told). An adopted or copied family database never runs setup
 * with a new root, so its options (or the family's defaults for the keys it lacks) stay as they were.
 */
export const FRESH_INSTALL_OPTIONS: Partial<Record<OptionKey, string>> = {
  RetryTimes: '3',
  AutomaticDisableChannelEnabled: 'true',
};

export function defaultOptionValues(): Record<OptionKey, string> {
  const values = {} as Record<OptionKey, string>;
  for (const key of OPTION_KEYS) values[key] = OPTION_DEFINITIONS[key].default;
  return values;
}
