import { DeleteOutlined, EditOutlined, KeyOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import type { PasskeyView, PublicStatus } from '@gateway/shared';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { Alert, Button, Card, Empty, List, Popconfirm, Skeleton, Space, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAddPasskey, useDeletePasskey, usePasskeys } from '../../hooks/passkey/use-passkeys';
import { notify } from '../../lib/notify';
import { passkeyErrorText } from './passkey-errors';
import { PasskeyNameModal } from './passkey-name-modal';
import './passkey.css';

const when = (time: string | null) => (time ? dayjs(time).format('YYYY-MM-DD HH:mm') : null);

/**
 * The personal page's passkeys: every passkey of the user with its name and last use, added, renamed and removed
 * one by one. Adding is offered while the operator has passkeys on; existing ones can always be removed.
 */
export function PasskeysCard({ status }: { status: Partial<PublicStatus> }) {
  const { t } = useTranslation();
  const passkeys = usePasskeys();
  const add = useAddPasskey();
  const remove = useDeletePasskey();
  const [naming, setNaming] = useState<{ mode: 'add' } | { mode: 'rename'; passkey: PasskeyView } | null>(null);
  const enabled = Boolean(status.passkey_login);
  const supported = browserSupportsWebAuthn();

  const onAdd = (name: string) => {
    setNaming(null);
    add.mutate(name, {
      onSuccess: (message) => notify.success(message || t('passkey.added')),
      onError: (error) => notify.error(passkeyErrorText(t, error)),
    });
  };

  const list = passkeys.data?.passkeys ?? [];
  let body: React.ReactNode;
  if (passkeys.isPending) body = <Skeleton active paragraph={{ rows: 3 }} />;
  else if (passkeys.isError) {
    body = (
      <Alert
        type="error"
        showIcon
        title={t('passkey.load_failed')}
        description={passkeys.error instanceof Error ? passkeys.error.message : undefined}
        action={
          <Button size="small" icon={<ReloadOutlined />} onClick={() => void passkeys.refetch()}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  } else if (list.length === 0) {
    body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('passkey.empty')} />;
  } else {
    body = (
      <List
        className="passkey-list"
        dataSource={list}
        renderItem={(passkey) => (
          <List.Item
            data-testid="passkey-item"
            actions={[
              <Tooltip key="rename" title={t('passkey.rename')}>
                <Button
                  size="small"
                  icon={<EditOutlined />}
                  aria-label={t('passkey.rename')}
                  onClick={() => setNaming({ mode: 'rename', passkey })}
                />
              </Tooltip>,
              <Popconfirm
                key="delete"
                title={t('passkey.delete_confirm', { name: passkey.name || t('passkey.unnamed') })}
                okText={t('passkey.delete')}
                okButtonProps={{ danger: true }}
                cancelText={t('ui.cancel')}
                onConfirm={() =>
                  remove.mutateAsync(passkey.id).then(
                    () => notify.success(t('passkey.deleted')),
                    (error: unknown) => notify.error(passkeyErrorText(t, error)),
                  )
                }
              >
                <Button size="small" danger icon={<DeleteOutlined />} aria-label={t('passkey.delete')} />
              </Popconfirm>,
            ]}
          >
            <List.Item.Meta
              avatar={<KeyOutlined className="passkey-icon" />}
              title={
                <Space size={6} wrap>
                  <Typography.Text strong>{passkey.name || t('passkey.unnamed')}</Typography.Text>
                  {passkey.backup_state && <Tag color="blue">{t('passkey.synced')}</Tag>}
                </Space>
              }
              description={
                <Typography.Text type="secondary" className="passkey-dates">
                  {t('passkey.created', { time: when(passkey.created_at) ?? '—' })}
                  {' · '}
                  {passkey.last_used_at
                    ? t('passkey.last_used', { time: when(passkey.last_used_at) })
                    : t('passkey.never_used')}
                </Typography.Text>
              }
            />
          </List.Item>
        )}
      />
    );
  }

  return (
    <Card
      title={t('passkey.title')}
      data-testid="passkeys-card"
      className="personal-card passkey-card"
      extra={
        enabled && supported ? (
          <Button
            type="primary"
            size="small"
            icon={<PlusOutlined />}
            loading={add.isPending}
            onClick={() => setNaming({ mode: 'add' })}
          >
            {t('passkey.add')}
          </Button>
        ) : null
      }
    >
      <Typography.Paragraph type="secondary" className="passkey-hint">
        {t('passkey.hint')}
      </Typography.Paragraph>
      {!enabled && <Alert type="info" showIcon title={t('passkey.disabled_hint')} className="passkey-alert" />}
      {enabled && !supported && (
        <Alert type="warning" showIcon title={t('passkey.unsupported')} className="passkey-alert" />
      )}
      {body}
      <PasskeyNameModal state={naming} onAdd={onAdd} onClose={() => setNaming(null)} />
    </Card>
  );
}
