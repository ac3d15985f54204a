import { GithubOutlined, KeyOutlined, SendOutlined, TeamOutlined, WechatOutlined } from '@ant-design/icons';
import type { PublicStatus } from '@gateway/shared';
import { Button, Divider, Space } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CustomProviderIcon } from '../../../components/oauth/custom-provider-icon';
import { ProviderDialog } from '../../../components/oauth/provider-dialog';
import { useOAuthStart } from '../../../hooks/oauth/use-oauth-start';
import { isRedirectProvider, type OAuthProvider } from '../../../lib/oauth-urls';

type Provider = OAuthProvider | 'wechat' | 'telegram';

interface ProviderButton {
  provider: Provider;
  icon: ReactNode;
  enabled: (status: Partial<PublicStatus>) => boolean;
}

const PROVIDERS: ProviderButton[] = [
  { provider: 'github', icon: <GithubOutlined />, enabled: (s) => Boolean(s.github_oauth) },
  { provider: 'oidc', icon: <KeyOutlined />, enabled: (s) => Boolean(s.oidc_enabled) },
  { provider: 'linuxdo', icon: <TeamOutlined />, enabled: (s) => Boolean(s.linuxdo_oauth) },
  { provider: 'wechat', icon: <WechatOutlined />, enabled: (s) => Boolean(s.wechat_login) },
  { provider: 'telegram', icon: <SendOutlined />, enabled: (s) => Boolean(s.telegram_oauth) },
];

/**
 * One button per third-party login the operator switched on (the custom providers the root added after the
 * built-in ones); nothing at all when none is. Redirect providers leave for the provider's page; WeChat and Telegram open their dialogs.
 */
export function ThirdPartyLogin({ status }: { status: Partial<PublicStatus> }) {
  const { t } = useTranslation();
  const start = useOAuthStart();
  const [dialog, setDialog] = useState<'wechat' | 'telegram' | null>(null);
  const enabled = PROVIDERS.filter((item) => item.enabled(status));
  const custom = status.custom_oauth_providers ?? [];
  if (enabled.length === 0 && custom.length === 0) return null;

  const open = (provider: Provider) => {
    if (isRedirectProvider(provider)) start.mutate({ provider, intent: 'login' });
    else setDialog(provider);
  };

  return (
    <div data-testid="third-party-login">
      <Divider plain>{t('login.or')}</Divider>
      <Space orientation="vertical" style={{ width: '100%' }}>
        {enabled.map((item) => (
          <Button
            key={item.provider}
            block
            icon={item.icon}
            onClick={() => open(item.provider)}
            // The page is about to leave for the provider: keep the button busy until it does.
            loading={(start.isPending || start.isSuccess) && start.variables?.provider === item.provider}
          >
            {t(`login.with.${item.provider}`)}
          </Button>
        ))}
        {custom.map((item) => (
          <Button
            key={`custom-${item.slug}`}
            block
            icon={<CustomProviderIcon icon={item.icon} />}
            data-testid={`custom-oauth-login-${item.slug}`}
            onClick={() => start.mutate({ provider: item.slug, intent: 'login' })}
            loading={(start.isPending || start.isSuccess) && start.variables?.provider === item.slug}
          >
            {t('custom_oauth.login_with', { name: item.name })}
          </Button>
        ))}
      </Space>
      <ProviderDialog provider={dialog} mode="login" status={status} onClose={() => setDialog(null)} />
    </div>
  );
}
