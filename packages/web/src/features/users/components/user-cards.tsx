import { Avatar, Card, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CardList } from '../../../components/list/card-list';
import { isDeregistered } from '../types';
import { GroupTag, InviteCell, RoleTag, StatsCell, StatusTag, UserActions } from './user-cells';
import type { UserListProps } from './user-table';

/** The user list on a phone: one card per user instead of a wide table. */
export function UserCards({
  users,
  loading,
  pagination,
  ratios,
  busyId,
  onAction,
  onEdit,
  onAddQuota,
  empty,
}: UserListProps) {
  const { t } = useTranslation();
  return (
    <CardList items={users} loading={loading} pagination={pagination} empty={empty} testId="user-table">
      {(user) => (
        <Card key={user.id} size="small" className="list-card user-card">
          <Flex justify="space-between" align="flex-start" gap={8}>
            <Flex gap={10} align="center" style={{ minWidth: 0 }}>
              <Avatar className="user-avatar">{user.username.charAt(0).toUpperCase()}</Avatar>
              <Flex vertical style={{ minWidth: 0 }}>
                <Typography.Text strong ellipsis delete={isDeregistered(user)}>
                  {user.username}
                </Typography.Text>
                <Typography.Text type="secondary" ellipsis>
                  #{user.id}
                  {user.display_name && user.display_name !== user.username ? ` · ${user.display_name}` : ''}
                </Typography.Text>
              </Flex>
            </Flex>
            <Flex gap={4} wrap justify="flex-end">
              <RoleTag role={user.role} />
              <StatusTag user={user} />
            </Flex>
          </Flex>
          <dl className="list-card-facts user-card-facts">
            <dt>{t('users.col_group')}</dt>
            <dd>
              <GroupTag group={user.group} ratios={ratios} />
            </dd>
            <dt>{t('users.col_stats')}</dt>
            <dd>
              <StatsCell user={user} />
            </dd>
            <dt>{t('users.col_invite')}</dt>
            <dd>
              <InviteCell user={user} />
            </dd>
          </dl>
          {!isDeregistered(user) && (
            <UserActions
              user={user}
              busy={busyId === user.id}
              onAction={onAction}
              onEdit={onEdit}
              onAddQuota={onAddQuota}
              block
            />
          )}
        </Card>
      )}
    </CardList>
  );
}
