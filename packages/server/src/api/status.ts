import type { PublicStatus } from '@gateway/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { ok } from '../http/envelope.js';
import { loginProviders } from '../services/accounts/oauth/custom.js';
import { creemEnabled } from '../services/payments/creem.js';
import { epayEnabled } from '../services/payments/epay-settle.js';
import { stripeEnabled } from '../services/payments/stripe.js';

/** The public status object: built only from non-secret options, so it is safe for every visitor. */
export function publicStatus(ctx: AppContext): PublicStatus {
  const o = ctx.options;
  return {
    version: ctx.config.version,
    start_time: ctx.startTime,
    setup: ctx.setup.done,
    system_name: o.get('SystemName'),
    logo: o.get('Logo'),
    footer_html: o.get('Footer'),
    server_address: o.get('ServerAddress'),
    quota_per_unit: o.number('QuotaPerUnit'),
    display_in_currency: o.bool('DisplayInCurrencyEnabled'),
    display_token_stat: o.bool('DisplayTokenStatEnabled'),
    enable_drawing: o.bool('DrawingEnabled'),
    enable_task: o.bool('TaskEnabled'),
    enable_data_export: o.bool('DataExportEnabled'),
    data_export_default_time: o.get('DataExportDefaultTime'),
    default_collapse_sidebar: o.bool('DefaultCollapseSidebar'),
    mj_notify_enabled: o.bool('MjNotifyEnabled'),
    chats: o.json('Chats') ?? [],
    chat_link: o.get('ChatLink'),
    chat_link2: o.get('ChatLink2'),
    docs_link: o.get('general_setting.docs_link'),
    top_up_link: o.get('TopUpLink'),
    price: o.number('Price'),
    min_topup: o.number('MinTopUp'),
    email_verification: o.bool('EmailVerificationEnabled'),
    turnstile_check: o.bool('TurnstileCheckEnabled'),
    turnstile_site_key: o.get('TurnstileSiteKey'),
    github_oauth: o.bool('GitHubOAuthEnabled'),
    github_client_id: o.get('GitHubClientId'),
    oidc_enabled: o.bool('oidc.enabled'),
    oidc_client_id: o.get('oidc.client_id'),
    oidc_authorization_endpoint: o.get('oidc.authorization_endpoint'),
    linuxdo_oauth: o.bool('LinuxDOOAuthEnabled'),
    linuxdo_client_id: o.get('LinuxDOClientId'),
    wechat_login: o.bool('WeChatAuthEnabled'),
    wechat_qrcode: o.get('WeChatAccountQRCodeImageURL'),
    telegram_oauth: o.bool('TelegramOAuthEnabled'),
    telegram_bot_name: o.get('TelegramBotName'),
    register_enabled: o.bool('RegisterEnabled'),
    password_login_enabled: o.bool('PasswordLoginEnabled'),
    password_register_enabled: o.bool('PasswordRegisterEnabled'),
    self_use_mode_enabled: o.bool('SelfUseModeEnabled'),
    demo_site_enabled: o.bool('DemoSiteEnabled'),
    enable_online_topup: epayEnabled(ctx),
    stripe_unit_price: o.number('StripeUnitPrice'),
    enable_stripe_topup: stripeEnabled(ctx),
    enable_creem_topup: creemEnabled(ctx),
    enable_batch_update: true,
    discord_oauth: false,
    checkin_enabled: o.bool('checkin_setting.enabled'),
    passkey_login: o.bool('passkey.enabled'),
    passkey_display_name: o.get('passkey.rp_display_name') || o.get('SystemName'),
    passkey_rp_id: o.get('passkey.rp_id'),
    passkey_origins: o.get('passkey.origins'),
    passkey_allow_insecure: o.bool('passkey.allow_insecure_origin'),
    passkey_user_verification: o.get('passkey.user_verification'),
    passkey_attachment: o.get('passkey.attachment_preference'),
    quota_display_type: o.bool('DisplayInCurrencyEnabled') ? 'USD' : 'TOKENS',
  };
}

export async function statusRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get('/api/status', async () => ok({ ...publicStatus(ctx), custom_oauth_providers: await loginProviders(ctx) }));
}
