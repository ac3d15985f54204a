import { isAdmin, isRoot, UserStatus } from '@gateway/shared';
import { Avatar, Button, Descriptions, Empty, Flex, Modal, Skeleton, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import { useLogUser } from '../api/use-log-user';

interface UserDetailModalProps {
  /** The user to show; null keeps the window closed. */
  userId: number | null;
  /** Shown while the record loads. */
  username: string;
  onClose: () => void;
}

/** Admin's look at the user behind a log row (`GET /api/user/{id}`). */
export function UserDetailModal({ userId, username, onClose }: UserDetailModalProps) {
  const { t } = useTranslation();
  const formatQuota = useFormatQuota();
  const user = useLogUser(userId);
  const detail = user.data;

  const roleLabel = (role: number) =>
    isRoot(role) ? t('log.role_root') : isAdmin(role) ? t('log.role_admin') : t('log.role_user');

  return (
    <Modal
      open={userId !== null}
      onCancel={onClose}
      title={t('log.user_detail')}
      footer={<Button onClick={onClose}>{t('ui.close')}</Button>}
      destroyOnHidden
    >
      <div data-testid="log-user-detail">
        <Flex align="center" gap={12} style={{ marginBottom: 16 }}>
          <Avatar size={48} className="log-user-avatar">
            {(detail?.username ?? username).charAt(0).toUpperCase()}
          </Avatar>
          <Flex vertical>
            <Typography.Text strong>{detail?.display_name || detail?.username || username}</Typography.Text>
            <Typography.Text type="secondary">{detail?.username ?? username}</Typography.Text>
          </Flex>
        </Flex>
        {user.isPending ? (
          <Skeleton active paragraph={{ rows: 4 }} title={false} />
        ) : user.isError || !detail ? (
          <Empty description={user.error instanceof Error ? user.error.message : t('log.user_load_failed')}>
            <Button onClick={() => void user.refetch()}>{t('common.retry')}</Button>
          </Empty>
        ) : (
          <Descriptions
            size="small"
            bordered
            column={1}
            items={[
              { key: 'id', label: t('log.user_id'), children: detail.id },
              {
                key: 'role',
                label: t('log.user_role'),
                children: <Tag variant="filled">{roleLabel(detail.role)}</Tag>,
              },
              {
                key: 'status',
                label: t('log.user_status'),
                children:
                  detail.status === UserStatus.Enabled ? (
                    <Tag color="green" variant="filled">
                      {t('log.user_enabled')}
                    </Tag>
                  ) : (
                    <Tag color="red" variant="filled">
                      {t('log.user_disabled')}
                    </Tag>
                  ),
              },
              { key: 'group', label: t('log.col_group'), children: detail.group || '—' },
              { key: 'quota', label: t('log.user_quota'), children: formatQuota(detail.quota) },
              { key: 'used', label: t('log.user_used_quota'), children: formatQuota(detail.used_quota) },
              { key: 'requests', label: t('log.user_requests'), children: detail.request_count },
              { key: 'email', label: t('log.user_email'), children: detail.email || '—' },
            ]}
          />
        )}
      </div>
    </Modal>
  );
}
