import { Alert } from 'antd';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldSpec } from '../components/kit/field-spec';
import { OptionSection } from '../components/kit/option-section';
import { CustomOAuthSection } from '../components/system/custom-oauth-section';
import { EmailWhitelistInput } from '../components/system/email-whitelist-input';
import { OidcDiscoveryButton } from '../components/system/oidc-discovery-button';
import { PasskeySettingsSection } from '../components/system/passkey-settings-section';
import type { OptionMap } from '../option-form';
import { cardPaymentSections } from './card-payment-sections';

export interface Section {
  id: string;
  title: string;
  fields: FieldSpec[];
  /** The callback path a provider needs registered (shown with the server address). */
  callback?: string;
  beforeSave?: (changes: Array<[string, string]>) => string | null;
}

/** System settings (spec 000 §2): address, payment, sign-in methods, e-mail, human check. */
export function SystemTab({ options }: { options: OptionMap }) {
  const { t } = useTranslation();
  const server = options.ServerAddress || window.location.origin;

  // Callbacks and return links are built from the server address (spec 000 §5).
  const serverAddressFirst = useCallback(
    () => (options.ServerAddress?.trim() ? null : t('setting.system.server_address_first')),
    [options.ServerAddress, t],
  );
  const sections = useMemo<Section[]>(
    () => [
      {
        id: 'general',
        title: t('setting.system.general'),
        fields: [
          {
            key: 'ServerAddress',
            kind: 'url',
            label: t('setting.system.server_address'),
            help: t('setting.system.server_address_help'),
            placeholder: 'https://gateway.example.com',
          },
          {
            key: 'fetch_setting.allow_private_ip',
            kind: 'switch',
            label: t('setting.system.allow_private_ip'),
            help: t('setting.system.allow_private_ip_help'),
          },
        ],
      },
      {
        id: 'payment',
        title: t('setting.system.payment'),
        beforeSave: serverAddressFirst,
        fields: [
          {
            key: 'PayAddress',
            kind: 'url',
            label: t('setting.system.pay_address'),
            placeholder: 'https://pay.example.com',
          },
          { key: 'EpayId', kind: 'text', label: t('setting.system.epay_id') },
          { key: 'EpayKey', kind: 'secret', label: t('setting.system.epay_key') },
          {
            key: 'Price',
            kind: 'number',
            label: t('setting.system.price'),
            help: t('setting.system.price_help'),
            min: 0,
            step: 0.1,
          },
          { key: 'MinTopUp', kind: 'number', label: t('setting.system.min_top_up'), min: 1, precision: 0 },
          {
            key: 'CustomCallbackAddress',
            kind: 'url',
            label: t('setting.system.callback_address'),
            help: t('setting.system.callback_address_help'),
          },
          {
            key: 'TopupGroupRatio',
            kind: 'json',
            label: t('setting.system.topup_group_ratio'),
            help: t('setting.system.topup_group_ratio_help'),
            wide: true,
          },
          {
            key: 'payment_setting.amount_options',
            kind: 'json',
            label: t('setting.system.amount_options'),
            help: t('setting.system.amount_options_help'),
            placeholder: '[10, 20, 50, 100, 200, 500]',
            rows: 2,
            wide: true,
          },
          {
            key: 'payment_setting.amount_discount',
            kind: 'json',
            label: t('setting.system.amount_discount'),
            help: t('setting.system.amount_discount_help'),
            placeholder: '{"100": 0.95, "500": 0.9}',
            rows: 2,
            wide: true,
          },
        ],
      },
      ...cardPaymentSections(t, serverAddressFirst),
      {
        id: 'login',
        title: t('setting.system.login'),
        fields: [
          {
            key: 'PasswordLoginEnabled',
            kind: 'switch',
            label: t('setting.system.password_login'),
            confirmOff: {
              title: t('setting.system.password_login_off_title'),
              content: t('setting.system.password_login_off_text'),
            },
          },
          { key: 'PasswordRegisterEnabled', kind: 'switch', label: t('setting.system.password_register') },
          { key: 'EmailVerificationEnabled', kind: 'switch', label: t('setting.system.email_verification') },
          { key: 'RegisterEnabled', kind: 'switch', label: t('setting.system.register') },
          { key: 'AdminTwoFARequired', kind: 'switch', label: t('setting.system.admin_two_fa_required') },
        ],
      },
      {
        id: 'whitelist',
        title: t('setting.system.whitelist'),
        fields: [
          { key: 'EmailDomainRestrictionEnabled', kind: 'switch', label: t('setting.system.domain_restriction') },
          { key: 'EmailAliasRestrictionEnabled', kind: 'switch', label: t('setting.system.alias_restriction') },
          {
            key: 'EmailDomainWhitelist',
            kind: 'text',
            label: t('setting.system.whitelist_domains'),
            input: <EmailWhitelistInput />,
            wide: true,
          },
        ],
      },
      {
        id: 'smtp',
        title: t('setting.system.smtp'),
        fields: [
          { key: 'SMTPServer', kind: 'text', label: t('setting.system.smtp_server'), placeholder: 'smtp.example.com' },
          { key: 'SMTPPort', kind: 'number', label: t('setting.system.smtp_port'), min: 1, max: 65535, precision: 0 },
          { key: 'SMTPAccount', kind: 'text', label: t('setting.system.smtp_account') },
          { key: 'SMTPFrom', kind: 'text', label: t('setting.system.smtp_from') },
          { key: 'SMTPToken', kind: 'secret', label: t('setting.system.smtp_token') },
          { key: 'SMTPSSLEnabled', kind: 'switch', label: t('setting.system.smtp_ssl') },
        ],
      },
      {
        id: 'oidc',
        title: t('setting.system.oidc'),
        callback: '/oauth/oidc',
        fields: [
          { key: 'oidc.enabled', kind: 'switch', label: t('setting.system.oidc_enabled') },
          { key: 'oidc.client_id', kind: 'text', label: t('setting.system.client_id') },
          { key: 'oidc.client_secret', kind: 'secret', label: t('setting.system.client_secret') },
          {
            key: 'oidc.well_known',
            kind: 'url',
            label: t('setting.system.oidc_well_known'),
            help: t('setting.system.oidc_well_known_help'),
            placeholder: 'https://idp.example.com/.well-known/openid-configuration',
            addon: <OidcDiscoveryButton />,
            wide: true,
          },
          { key: 'oidc.authorization_endpoint', kind: 'url', label: t('setting.system.oidc_authorization') },
          { key: 'oidc.token_endpoint', kind: 'url', label: t('setting.system.oidc_token') },
          { key: 'oidc.user_info_endpoint', kind: 'url', label: t('setting.system.oidc_userinfo') },
        ],
      },
      {
        id: 'github',
        title: t('setting.system.github'),
        callback: '/oauth/github',
        fields: [
          { key: 'GitHubOAuthEnabled', kind: 'switch', label: t('setting.system.github_enabled') },
          { key: 'GitHubClientId', kind: 'text', label: t('setting.system.client_id') },
          { key: 'GitHubClientSecret', kind: 'secret', label: t('setting.system.client_secret') },
        ],
      },
      {
        id: 'linuxdo',
        title: t('setting.system.linuxdo'),
        callback: '/oauth/linuxdo',
        fields: [
          { key: 'LinuxDOOAuthEnabled', kind: 'switch', label: t('setting.system.linuxdo_enabled') },
          { key: 'LinuxDOClientId', kind: 'text', label: t('setting.system.client_id') },
          { key: 'LinuxDOClientSecret', kind: 'secret', label: t('setting.system.client_secret') },
        ],
      },
      {
        id: 'wechat',
        title: t('setting.system.wechat'),
        fields: [
          { key: 'WeChatAuthEnabled', kind: 'switch', label: t('setting.system.wechat_enabled') },
          { key: 'WeChatServerAddress', kind: 'url', label: t('setting.system.wechat_server') },
          { key: 'WeChatServerToken', kind: 'secret', label: t('setting.system.wechat_token') },
          { key: 'WeChatAccountQRCodeImageURL', kind: 'url', label: t('setting.system.wechat_qrcode') },
        ],
      },
      {
        id: 'telegram',
        title: t('setting.system.telegram'),
        fields: [
          { key: 'TelegramOAuthEnabled', kind: 'switch', label: t('setting.system.telegram_enabled') },
          { key: 'TelegramBotName', kind: 'text', label: t('setting.system.telegram_bot_name') },
          { key: 'TelegramBotToken', kind: 'secret', label: t('setting.system.telegram_bot_token') },
        ],
      },
      {
        id: 'worker',
        title: t('setting.system.worker'),
        fields: [
          {
            key: 'WorkerUrl',
            kind: 'url',
            label: t('setting.system.worker_url'),
            help: t('setting.system.worker_url_help'),
            placeholder: 'https://',
          },
          { key: 'WorkerValidKey', kind: 'secret', label: t('setting.system.worker_key') },
          { key: 'WorkerAllowHttpImageRequestEnabled', kind: 'switch', label: t('setting.system.worker_allow_http') },
        ],
      },
      {
        id: 'turnstile',
        title: t('setting.system.turnstile'),
        fields: [
          { key: 'TurnstileCheckEnabled', kind: 'switch', label: t('setting.system.turnstile_enabled') },
          { key: 'TurnstileSiteKey', kind: 'text', label: t('setting.system.turnstile_site_key') },
          { key: 'TurnstileSecretKey', kind: 'secret', label: t('setting.system.turnstile_secret_key') },
        ],
      },
    ],
    [t, serverAddressFirst],
  );

  return (
    <>
      {sections.map((section) => (
        <OptionSection
          key={section.id}
          title={section.title}
          fields={section.fields}
          options={options}
          beforeSave={section.beforeSave}
          testId={`section-${section.id}`}
          intro={
            section.callback ? (
              <Alert
                type="info"
                showIcon
                title={t('setting.system.callback_hint', { url: `${server}${section.callback}` })}
              />
            ) : undefined
          }
        />
      ))}
      <CustomOAuthSection server={server} />
      <PasskeySettingsSection options={options} />
    </>
  );
}
