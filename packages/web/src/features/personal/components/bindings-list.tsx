import {
  GithubOutlined,
  KeyOutlined,
  MailOutlined,
  SendOutlined,
  TeamOutlined,
  WechatOutlined,
} from '@ant-design/icons';
import type { PublicStatus, SelfUser } from '@gateway/shared';
import { Button, Flex, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmailBindModal } from '../../../components/account/email-bind-modal';
import { type BindableProvider, BindProviderButton } from '../../../components/oauth/bind-provider-button';
import { CustomBindingRows } from './custom-binding-rows';

interface Binding {
  key: 'email' | BindableProvider;
  field: 'email' | 'wechat_id' | 'github_id' | 'oidc_id' | 'telegram_id' | 'linux_do_id';
  icon: ReactNode;
  /** Whether the operator switched this way of signing in on (public status). */
  enabled: (status: Partial<PublicStatus>) => boolean;
}

const BINDINGS: Binding[] = [
  { key: 'email', field: 'email', icon: <MailOutlined />, enabled: (s) => Boolean(s.email_verification) },
  { key: 'wechat', field: 'wechat_id', icon: <WechatOutlined />, enabled: (s) => Boolean(s.wechat_login) },
  { key: 'github', field: 'github_id', icon: <GithubOutlined />, enabled: (s) => Boolean(s.github_oauth) },
  { key: 'oidc', field: 'oidc_id', icon: <KeyOutlined />, enabled: (s) => Boolean(s.oidc_enabled) },
  { key: 'telegram', field: 'telegram_id', icon: <SendOutlined />, enabled: (s) => Boolean(s.telegram_oauth) },
  { key: 'linuxdo', field: 'linux_do_id', icon: <TeamOutlined />, enabled: (s) => Boolean(s.linuxdo_oauth) },
];

/**
 * The account's bindings: the providers the operator enabled (with a bind button), and any other that is already
 * bound (so the user still sees it); a provider that is neither is not offered at all. Third-party bindings run
 * through the oauth feature (a redirect or the provider's dialog).
 */
export function BindingsList({ user, status }: { user: SelfUser; status: Partial<PublicStatus> }) {
  const { t } = useTranslation();
  const [bindingEmail, setBindingEmail] = useState(false);
  return (
    <Flex vertical className="personal-bindings" data-testid="personal-bindings">
      {BINDINGS.map((binding) => {
        const value = user[binding.field];
        if (!value && !binding.enabled(status)) return null;
        return (
          <Flex key={binding.key} align="center" gap={12} className="personal-binding">
            <span className="personal-binding-icon">{binding.icon}</span>
            <Flex vertical style={{ minWidth: 0, flex: 1 }}>
              <Typography.Text>{t(`personal.binding_${binding.key}`)}</Typography.Text>
              <Typography.Text type="secondary" ellipsis className="personal-hint">
                {value ? value : t('personal.not_bound')}
              </Typography.Text>
            </Flex>
            {binding.enabled(status) &&
              (binding.key === 'email' ? (
                <Button size="small" onClick={() => setBindingEmail(true)}>
                  {value ? t('personal.rebind') : t('personal.bind')}
                </Button>
              ) : (
                <BindProviderButton provider={binding.key} bound={Boolean(value)} status={status} />
              ))}
          </Flex>
        );
      })}
      <CustomBindingRows status={status} />
      <EmailBindModal open={bindingEmail} onClose={() => setBindingEmail(false)} />
    </Flex>
  );
}
