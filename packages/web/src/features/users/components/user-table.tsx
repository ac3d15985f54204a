import { Typography } from 'antd';
import type { ColumnsType, TablePaginationConfig } from 'antd/es/table';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ListTable } from '../../../components/list/list-table';
import type { AdminUser, ManageAction } from '../types';
import { GroupTag, InviteCell, NameCell, RoleTag, StatsCell, StatusTag, UserActions } from './user-cells';

export interface UserListProps {
  users: AdminUser[];
  loading: boolean;
  pagination: TablePaginationConfig;
  ratios: Record<string, number> | undefined;
  busyId: number | undefined;
  onAction: (user: AdminUser, action: Exclude<ManageAction, 'add_quota'>) => void;
  onEdit: (user: AdminUser) => void;
  onAddQuota: (user: AdminUser) => void;
  empty: ReactNode;
}

export function UserTable({
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

  const columns: ColumnsType<AdminUser> = [
    {
      key: 'id',
      title: t('users.col_id'),
      dataIndex: 'id',
      width: 72,
      render: (id: number) => <Typography.Text type="secondary">{id}</Typography.Text>,
    },
    { key: 'username', title: t('users.col_username'), render: (_, user) => <NameCell user={user} /> },
    {
      key: 'group',
      title: t('users.col_group'),
      render: (_, user) => <GroupTag group={user.group} ratios={ratios} />,
    },
    { key: 'stats', title: t('users.col_stats'), render: (_, user) => <StatsCell user={user} /> },
    { key: 'invite', title: t('users.col_invite'), render: (_, user) => <InviteCell user={user} /> },
    { key: 'role', title: t('users.col_role'), render: (_, user) => <RoleTag role={user.role} /> },
    { key: 'status', title: t('users.col_status'), render: (_, user) => <StatusTag user={user} /> },
    {
      key: 'actions',
      title: t('ui.actions'),
      fixed: 'right',
      render: (_, user) => (
        <UserActions
          user={user}
          busy={busyId === user.id}
          onAction={onAction}
          onEdit={onEdit}
          onAddQuota={onAddQuota}
        />
      ),
    },
  ];

  return (
    <ListTable<AdminUser>
      testId="user-table"
      empty={empty}
      columns={columns}
      dataSource={users}
      loading={loading}
      pagination={pagination}
      size="middle"
    />
  );
}
