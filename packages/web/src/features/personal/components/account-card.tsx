import { CopyOutlined, DeleteOutlined, KeyOutlined, LockOutlined } from '@ant-design/icons';
import type { PublicStatus, SelfUser } from '@gateway/shared';
import { App, Button, Card, Divider, Flex, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useResetAccessToken } from '../api/use-reset-access-token';
import { BindingsList } from './bindings-list';
import { DeleteAccountModal } from './delete-account-modal';
import { PasswordModal } from './password-modal';

interface AccountCardProps {
  user: SelfUser;
  status: Partial<PublicStatus>;
  onCopy: (text: string, successText?: string) => void;
}

/** Bindings, then the security actions: system access token, password, account deletion. */
export function AccountCard({ user, status, onCopy }: AccountCardProps) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const reset = useResetAccessToken();
  const [accessToken, setAccessToken] = useState<string | null>(null);
  const [dialog, setDialog] = useState<'password' | 'delete' | null>(null);

  const generate = () =>
    modal.confirm({
      title: t('personal.token_confirm_title'),
      content: t('personal.token_confirm'),
      okText: t('personal.token_generate'),
      cancelText: t('ui.cancel'),
      onOk: () =>
        reset.mutateAsync(undefined, {
          onSuccess: (token) => {
            setAccessToken(token);
            onCopy(token, t('personal.token_copied'));
          },
        }),
    });

  return (
    <Card title={t('personal.account_title')} className="personal-card">
      <BindingsList user={user} status={status} />
      <Divider plain titlePlacement="start" className="personal-divider">
        {t('personal.security_title')}
      </Divider>
      <Flex vertical gap={16}>
        <div className="personal-action">
          <Flex justify="space-between" align="center" gap={12} wrap>
            <div className="personal-action-text">
              <Typography.Text strong>{t('personal.token_title')}</Typography.Text>
              <Typography.Paragraph type="secondary" className="personal-hint" style={{ margin: 0 }}>
                {t('personal.token_hint')}
              </Typography.Paragraph>
            </div>
            <Button icon={<KeyOutlined />} onClick={generate} loading={reset.isPending} data-testid="personal-token">
              {t('personal.token_generate')}
            </Button>
          </Flex>
          {accessToken && (
            <div className="personal-token-box">
              <Typography.Text type="success" className="personal-hint">
                {t('personal.token_once')}
              </Typography.Text>
              <Space.Compact style={{ width: '100%' }}>
                <Input
                  readOnly
                  value={accessToken}
                  className="mono-text"
                  aria-label={t('personal.token_title')}
                  data-testid="personal-token-value"
                  onFocus={(event) => event.target.select()}
                />
                <Button icon={<CopyOutlined />} onClick={() => onCopy(accessToken, t('personal.token_copied'))}>
                  {t('personal.copy')}
                </Button>
              </Space.Compact>
            </div>
          )}
        </div>
        <Flex justify="space-between" align="center" gap={12} wrap className="personal-action">
          <div className="personal-action-text">
            <Typography.Text strong>{t('personal.password_title')}</Typography.Text>
            <Typography.Paragraph type="secondary" className="personal-hint" style={{ margin: 0 }}>
              {t('personal.password_action_hint')}
            </Typography.Paragraph>
          </div>
          <Button icon={<LockOutlined />} onClick={() => setDialog('password')} data-testid="personal-password">
            {t('personal.password_title')}
          </Button>
        </Flex>
        <Flex justify="space-between" align="center" gap={12} wrap className="personal-action">
          <div className="personal-action-text">
            <Typography.Text strong type="danger">
              {t('personal.delete_title')}
            </Typography.Text>
            <Typography.Paragraph type="secondary" className="personal-hint" style={{ margin: 0 }}>
              {t('personal.delete_action_hint')}
            </Typography.Paragraph>
          </div>
          <Button danger icon={<DeleteOutlined />} onClick={() => setDialog('delete')} data-testid="personal-delete">
            {t('personal.delete_title')}
          </Button>
        </Flex>
      </Flex>
      <PasswordModal open={dialog === 'password'} onClose={() => setDialog(null)} />
      <DeleteAccountModal open={dialog === 'delete'} username={user.username} onClose={() => setDialog(null)} />
    </Card>
  );
}
