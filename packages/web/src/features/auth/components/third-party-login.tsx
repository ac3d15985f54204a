import { GithubOutlined, KeyOutlined, SendOutlined, TeamOutlined, WechatOutlined } from '@ant-design/icons';
import type { PublicStatus } from '@gateway/shared';
import { Button, Divider, Space } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { useOAuthState } from '../api/use-oauth-state';
import { type OAuthProvider, oauthAuthorizeUrl } from '../oauth-urls';

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

function isRedirectProvider(provider: Provider): provider is OAuthProvider {
  return provider === 'github' || provider === 'oidc' || provider === 'linuxdo';
}

/** One button per third-party login the operator switched on; nothing at all when none is. */
export function ThirdPartyLogin({ status }: { status: Partial<PublicStatus> }) {
  const { t } = useTranslation();
  const oauthState = useOAuthState();
  const enabled = PROVIDERS.filter((item) => item.enabled(status));
  if (enabled.length === 0) return null;

  const start = (provider: Provider) => {
    if (!isRedirectProvider(provider)) {
      // The QR-code and widget flows come with the third-party login issue.
      notify.info(t('login.oauth_unavailable'));
      return;
    }
    oauthState.mutate(undefined, {
      onSuccess: (state) => window.location.assign(oauthAuthorizeUrl(provider, status, state, window.location.origin)),
    });
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
            onClick={() => start(item.provider)}
            loading={oauthState.isPending}
          >
            {t(`login.with.${item.provider}`)}
          </Button>
        ))}
      </Space>
    </div>
  );
}
