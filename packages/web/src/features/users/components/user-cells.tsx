import { DownOutlined, EditOutlined, PlusCircleOutlined } from '@ant-design/icons';
import { Role, UserStatus } from '@gateway/shared';
import { App, Button, Dropdown, type MenuProps, Space, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import { notify } from '../../../lib/notify';
import { groupRatioColor, ROLE_TAGS, STATUS_TAGS, UNKNOWN_ROLE, UNKNOWN_STATUS } from '../../../lib/user-view';
import { useResetTwoFactor } from '../api/use-reset-two-factor';
import { type AdminUser, isDeregistered, type ManageAction } from '../types';

export function RoleTag({ role }: { role: number }) {
  const { t } = useTranslation();
  const tag = ROLE_TAGS[role] ?? UNKNOWN_ROLE;
  return (
    <Tag color={tag.color} variant="filled">
      {t(tag.labelKey)}
    </Tag>
  );
}

/** A deregistered user shows only the red tag: their status no longer means anything. */
export function StatusTag({ user }: { user: AdminUser }) {
  const { t } = useTranslation();
  if (isDeregistered(user)) {
    return (
      <Tag color="red" variant="solid">
        {t('users.status_deregistered')}
      </Tag>
    );
  }
  const tag = STATUS_TAGS[user.status] ?? UNKNOWN_STATUS;
  return (
    <Tag color={tag.color} variant="filled">
      {t(tag.labelKey)}
    </Tag>
  );
}

export function GroupTag({ group, ratios }: { group: string; ratios: Record<string, number> | undefined }) {
  const { t } = useTranslation();
  const name = group || 'default';
  const ratio = ratios?.[name];
  const tag = (
    <Tag color={groupRatioColor(ratio)} variant="filled">
      {name}
    </Tag>
  );
  return ratio === undefined ? tag : <Tooltip title={t('users.group_ratio', { ratio })}>{tag}</Tooltip>;
}

export function NameCell({ user }: { user: AdminUser }) {
  return (
    <div className="user-name-cell">
      <Typography.Text strong delete={isDeregistered(user)}>
        {user.username}
      </Typography.Text>
      {user.display_name && user.display_name !== user.username && (
        <Typography.Text type="secondary">{user.display_name}</Typography.Text>
      )}
      {user.remark && (
        <Typography.Text type="secondary" italic ellipsis={{ tooltip: user.remark }} className="user-remark">
          {user.remark}
        </Typography.Text>
      )}
    </div>
  );
}

export function StatsCell({ user }: { user: AdminUser }) {
  const { t } = useTranslation();
  const formatQuota = useFormatQuota();
  return (
    <div className="user-stack">
      <span>{t('users.stat_remaining', { value: formatQuota(user.quota) })}</span>
      <Typography.Text type="secondary">
        {t('users.stat_used', { value: formatQuota(user.used_quota) })}
      </Typography.Text>
      <Typography.Text type="secondary">{t('users.stat_requests', { count: user.request_count })}</Typography.Text>
    </div>
  );
}

export function InviteCell({ user }: { user: AdminUser }) {
  const { t } = useTranslation();
  const formatQuota = useFormatQuota();
  return (
    <div className="user-stack">
      <span>{t('users.invite_count', { count: user.aff_count })}</span>
      <Typography.Text type="secondary">
        {t('users.invite_earnings', { value: formatQuota(user.aff_history_quota) })}
      </Typography.Text>
      <Typography.Text type="secondary">
        {user.inviter_id ? t('users.inviter', { id: user.inviter_id }) : t('users.inviter_none')}
      </Typography.Text>
    </div>
  );
}

interface UserActionsProps {
  user: AdminUser;
  /** True while a manage call for this row is on its way. */
  busy: boolean;
  onAction: (user: AdminUser, action: Exclude<ManageAction, 'add_quota'>) => void;
  onEdit: (user: AdminUser) => void;
  onAddQuota: (user: AdminUser) => void;
  block?: boolean;
}

/**
 * Enable/disable, edit and add quota are one click; the role changes and the irreversible deregistration sit in
 * a menu behind a confirmation. A deregistered user has no actions at all.
 */
export function UserActions({ user, busy, onAction, onEdit, onAddQuota, block }: UserActionsProps) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const resetTwoFactor = useResetTwoFactor();
  if (isDeregistered(user)) return <Typography.Text type="secondary">—</Typography.Text>;

  const name = user.username;
  const confirmResetTwoFactor = () =>
    modal.confirm({
      title: t('two_factor.reset_title', { name }),
      content: t('two_factor.reset_text'),
      okText: t('two_factor.reset'),
      okButtonProps: { danger: true },
      cancelText: t('ui.cancel'),
      onOk: () =>
        resetTwoFactor.mutateAsync(user.id, { onSuccess: () => notify.success(t('two_factor.reset_done', { name })) }),
    });
  const confirm = (action: 'promote' | 'demote' | 'delete') => {
    const danger = action === 'delete';
    modal.confirm({
      title: t(`users.confirm_${action}_title`),
      content: t(`users.confirm_${action}`, { name }),
      okText: t(`users.action_${action}`),
      okButtonProps: danger ? { danger: true } : undefined,
      cancelText: t('ui.cancel'),
      onOk: () => onAction(user, action),
    });
  };

  const items: MenuProps['items'] = [
    user.role < Role.Admin
      ? { key: 'promote', label: t('users.action_promote') }
      : { key: 'demote', label: t('users.action_demote') },
    { key: 'reset_2fa', label: t('two_factor.reset') },
    { type: 'divider' },
    { key: 'delete', label: t('users.action_delete'), danger: true },
  ];

  const enabled = user.status === UserStatus.Enabled;
  return (
    <Space size={4} wrap={!!block} className={block ? 'user-actions-block' : 'user-actions'}>
      {enabled ? (
        <Button size="small" danger loading={busy} onClick={() => onAction(user, 'disable')}>
          {t('users.action_disable')}
        </Button>
      ) : (
        <Tooltip title={user.status === UserStatus.Frozen ? t('users.enable_frozen_hint') : undefined}>
          <Button
            size="small"
            loading={busy}
            disabled={user.status === UserStatus.Frozen}
            onClick={() => onAction(user, 'enable')}
          >
            {t('users.action_enable')}
          </Button>
        </Tooltip>
      )}
      {block ? (
        <>
          <Button size="small" icon={<EditOutlined />} onClick={() => onEdit(user)}>
            {t('ui.edit')}
          </Button>
          <Button size="small" icon={<PlusCircleOutlined />} onClick={() => onAddQuota(user)}>
            {t('users.action_add_quota')}
          </Button>
        </>
      ) : (
        <>
          <Tooltip title={t('ui.edit')}>
            <Button size="small" icon={<EditOutlined />} aria-label={t('ui.edit')} onClick={() => onEdit(user)} />
          </Tooltip>
          <Tooltip title={t('users.action_add_quota')}>
            <Button
              size="small"
              icon={<PlusCircleOutlined />}
              aria-label={t('users.action_add_quota')}
              onClick={() => onAddQuota(user)}
            />
          </Tooltip>
        </>
      )}
      <Dropdown
        trigger={['click']}
        menu={{
          items,
          onClick: ({ key }) =>
            key === 'reset_2fa' ? confirmResetTwoFactor() : confirm(key as 'promote' | 'demote' | 'delete'),
        }}
      >
        <Button size="small" aria-label={t('users.more_actions')}>
          {t('users.more')} <DownOutlined />
        </Button>
      </Dropdown>
    </Space>
  );
}
