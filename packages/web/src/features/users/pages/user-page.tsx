import { PlusOutlined, SearchOutlined, TeamOutlined } from '@ant-design/icons';
import { Button, Flex, Form, Input, Select, Skeleton } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ListEmpty } from '../../../components/list/list-empty';
import { ListPageCard } from '../../../components/list/list-page-card';
import { readPageSize } from '../../../components/list/page-size';
import { useServerPagination } from '../../../components/list/server-pagination';
import { notify } from '../../../lib/notify';
import { useIsMobile } from '../../../lib/use-media-query';
import { useGroupRatios } from '../api/use-group-ratios';
import { useGroups } from '../api/use-groups';
import { useManageUser } from '../api/use-manage-user';
import { useUsers } from '../api/use-users';
import { AddQuotaModal } from '../components/add-quota-modal';
import { UserCards } from '../components/user-cards';
import { UserCreateDrawer } from '../components/user-create-drawer';
import { UserEditDrawer } from '../components/user-edit-drawer';
import { UserTable } from '../components/user-table';
import type { AdminUser, ManageAction, UserListQuery } from '../types';
import '../users.css';

interface SearchValues {
  keyword?: string;
  group?: string;
}

/**
 * User administration (spec 000 "User management"). `/user/edit/:id` renders this page with that user's edit
 * drawer open; closing it returns to `/user`.
 */
export default function UserPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useParams<{ id?: string }>();
  const routeId = params.id !== undefined && /^\d+$/.test(params.id) ? Number(params.id) : undefined;
  const isMobile = useIsMobile();
  const List = isMobile ? UserCards : UserTable;
  const [query, setQuery] = useState<UserListQuery>(() => ({
    page: 1,
    pageSize: readPageSize(),
    keyword: '',
    group: '',
  }));
  const users = useUsers(query);
  const groups = useGroups();
  const ratios = useGroupRatios();
  const manage = useManageUser();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<{ open: boolean; id?: number }>(() =>
    routeId !== undefined ? { open: true, id: routeId } : { open: false },
  );
  const [quotaUser, setQuotaUser] = useState<AdminUser | null>(null);
  const searching = query.keyword.trim() !== '' || query.group !== '';
  const pagination = useServerPagination(query, setQuery, users.data?.total ?? 0);

  const onSearch = (values: SearchValues) =>
    setQuery((previous) => ({ ...previous, page: 1, keyword: values.keyword ?? '', group: values.group ?? '' }));

  const onAction = (user: AdminUser, action: Exclude<ManageAction, 'add_quota'>) =>
    manage.mutate({ id: user.id, action }, { onSuccess: () => notify.success(t('errors:user_action_done')) });

  const closeEdit = () => {
    setEditing((previous) => ({ ...previous, open: false }));
    if (routeId !== undefined) navigate('/user', { replace: true });
  };

  const empty = (
    <ListEmpty
      failed={users.isError}
      failedText={t('users.load_failed')}
      onRetry={() => void users.refetch()}
      filtered={searching}
      noMatchText={t('users.no_match')}
      icon={<TeamOutlined className="empty-icon" />}
      emptyText={t('users.empty')}
    />
  );

  return (
    <ListPageCard
      title={t('users.title')}
      subtitle={t('users.subtitle')}
      overlays={
        <>
          <UserCreateDrawer open={creating} onClose={() => setCreating(false)} />
          <UserEditDrawer open={editing.open} userId={editing.id} onClose={closeEdit} />
          <AddQuotaModal user={quotaUser} onClose={() => setQuotaUser(null)} />
        </>
      }
    >
      <Flex gap={12} wrap justify="space-between" align="flex-start">
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="user-create">
          {t('users.create')}
        </Button>
        <Form<SearchValues> layout="inline" onFinish={onSearch} className="table-search user-search">
          <Form.Item name="keyword">
            <Input
              allowClear
              prefix={<SearchOutlined />}
              placeholder={t('users.search_keyword')}
              aria-label={t('users.search_keyword')}
              className="user-search-keyword"
            />
          </Form.Item>
          <Form.Item name="group">
            <Select
              allowClear
              showSearch
              placeholder={t('users.search_group')}
              aria-label={t('users.search_group')}
              loading={groups.isPending}
              options={(groups.data ?? []).map((name) => ({ value: name, label: name }))}
              className="user-search-group"
            />
          </Form.Item>
          <Form.Item>
            <Button htmlType="submit" loading={users.isFetching && !users.isPending}>
              {t('ui.search')}
            </Button>
          </Form.Item>
        </Form>
      </Flex>

      {users.isPending ? (
        <Skeleton active paragraph={{ rows: 6 }} data-testid="user-skeleton" />
      ) : (
        <List
          users={users.data?.items ?? []}
          loading={users.isFetching}
          ratios={ratios.data}
          busyId={manage.isPending ? manage.variables?.id : undefined}
          pagination={pagination}
          onAction={onAction}
          onEdit={(user) => setEditing({ open: true, id: user.id })}
          onAddQuota={setQuotaUser}
          empty={empty}
        />
      )}
    </ListPageCard>
  );
}
