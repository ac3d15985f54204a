import {
  ApiOutlined,
  CopyOutlined,
  DeleteOutlined,
  KeyOutlined,
  PlusOutlined,
  SearchOutlined,
} from '@ant-design/icons';
import { TokenStatus } from '@gateway/shared';
import { App, Button, Flex, Form, Input, Skeleton, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListEmpty } from '../../../components/list/list-empty';
import { ListPageCard } from '../../../components/list/list-page-card';
import { readPageSize } from '../../../components/list/page-size';
import { useServerPagination } from '../../../components/list/server-pagination';
import { useRowSelection } from '../../../components/list/use-row-selection';
import { ZeroBalanceHint } from '../../../components/zero-balance-hint';
import { notify } from '../../../lib/notify';
import { useIsMobile } from '../../../lib/use-media-query';
import { useChannelCount } from '../api/use-channel-count';
import { useDeleteToken } from '../api/use-delete-token';
import { useDeleteTokens } from '../api/use-delete-tokens';
import { useTokens } from '../api/use-tokens';
import { useUpdateTokenStatus } from '../api/use-update-token-status';
import { TokenCards } from '../components/token-cards';
import { TokenFormDrawer } from '../components/token-form-drawer';
import { TokenTable } from '../components/token-table';
import '../token.css';
import { useCopyText } from '../../../hooks/use-copy-text';
import { displayKey, type Token, type TokenListQuery } from '../types';

interface SearchValues {
  keyword?: string;
  token?: string;
}

/** The edited row stays set while the drawer closes, so its content does not flip to the create form. */
interface DrawerState {
  open: boolean;
  token?: Token;
}

export default function TokenPage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const isMobile = useIsMobile();
  const List = isMobile ? TokenCards : TokenTable;
  const [query, setQuery] = useState<TokenListQuery>(() => ({
    page: 1,
    pageSize: readPageSize(),
    keyword: '',
    token: '',
  }));
  const tokens = useTokens(query);
  const updateStatus = useUpdateTokenStatus();
  const deleteOne = useDeleteToken();
  const deleteMany = useDeleteTokens();
  const { copy, fallback } = useCopyText();
  const [drawer, setDrawer] = useState<DrawerState>({ open: false });
  const selection = useRowSelection<Token>();
  const searching = query.keyword.trim() !== '' || query.token.trim() !== '';
  const pagination = useServerPagination(query, setQuery, tokens.data?.total ?? 0);

  const onSearch = (values: SearchValues) =>
    setQuery((previous) => ({ ...previous, page: 1, keyword: values.keyword ?? '', token: values.token ?? '' }));

  const onToggleStatus = (token: Token) => {
    const status = token.status === TokenStatus.Enabled ? TokenStatus.Disabled : TokenStatus.Enabled;
    updateStatus.mutate(
      { id: token.id, status },
      {
        onSuccess: () =>
          notify.success(status === TokenStatus.Enabled ? t('token.enabled_done') : t('token.disabled_done')),
      },
    );
  };

  const onDelete = (token: Token) =>
    deleteOne.mutate(token.id, {
      onSuccess: () => {
        notify.success(t('token.deleted'));
        selection.forget(token.id);
      },
    });

  const requireSelection = (): Token[] | null => {
    if (selection.size === 0) {
      notify.error(t('token.select_first'));
      return null;
    }
    return selection.rows();
  };

  const onCopySelected = () => {
    const rows = requireSelection();
    if (rows)
      void copy(rows.map((row) => displayKey(row.key)).join('\n'), t('token.keys_copied', { count: rows.length }));
  };

  const onDeleteSelected = () => {
    const rows = requireSelection();
    if (!rows) return;
    modal.confirm({
      title: t('token.delete_selected_confirm', { count: rows.length }),
      okText: t('ui.delete'),
      okButtonProps: { danger: true },
      cancelText: t('ui.cancel'),
      onOk: () =>
        deleteMany.mutateAsync(
          rows.map((row) => row.id),
          {
            onSuccess: (count) => {
              notify.success(t('errors:deleted_count', { count: count ?? rows.length }));
              selection.clear();
            },
          },
        ),
    });
  };

  const openCreate = () => setDrawer({ open: true });
  // An admin with no channel yet: a key would have nothing to call, so the empty list shows the order of things.
  const needsChannel = useChannelCount() === 0;

  const empty = (
    <ListEmpty
      failed={tokens.isError}
      failedText={t('token.load_failed')}
      onRetry={() => void tokens.refetch()}
      filtered={searching}
      noMatchText={t('token.no_match')}
      icon={<KeyOutlined className="empty-icon" />}
      emptyText={needsChannel ? t('token.empty_admin_steps') : t('token.empty')}
    >
      {needsChannel ? (
        <Flex vertical align="center" gap={12} data-testid="token-first-steps">
          <Space wrap>
            <Link to="/channel/add">
              <Button type="primary" icon={<ApiOutlined />}>
                {t('channel.add')}
              </Button>
            </Link>
            <Button icon={<PlusOutlined />} onClick={openCreate}>
              {t('token.create')}
            </Button>
          </Space>
        </Flex>
      ) : (
        <Button type="primary" icon={<PlusOutlined />} onClick={openCreate}>
          {t('token.create')}
        </Button>
      )}
    </ListEmpty>
  );

  return (
    <ListPageCard
      title={t('token.title')}
      subtitle={t('token.subtitle')}
      overlays={
        <>
          <TokenFormDrawer
            open={drawer.open}
            token={drawer.token}
            onClose={() => setDrawer((previous) => ({ ...previous, open: false }))}
          />
          {fallback}
        </>
      }
    >
      <ZeroBalanceHint />
      <Flex gap={12} wrap justify="space-between" align="flex-start">
        <Space wrap>
          <Button type="primary" icon={<PlusOutlined />} onClick={openCreate} data-testid="token-create">
            {t('token.create')}
          </Button>
          <Button icon={<CopyOutlined />} onClick={onCopySelected}>
            {t('token.copy_selected')}
          </Button>
          <Button danger icon={<DeleteOutlined />} onClick={onDeleteSelected}>
            {t('token.delete_selected')}
          </Button>
          {selection.size > 0 && (
            <Typography.Text type="secondary">{t('ui.selected_count', { count: selection.size })}</Typography.Text>
          )}
        </Space>
        <Form<SearchValues> layout="inline" onFinish={onSearch} className="table-search">
          <Form.Item name="keyword">
            <Input
              allowClear
              prefix={<SearchOutlined />}
              placeholder={t('token.search_keyword')}
              aria-label={t('token.search_keyword')}
            />
          </Form.Item>
          <Form.Item name="token">
            <Input allowClear placeholder={t('token.search_token')} aria-label={t('token.search_token')} />
          </Form.Item>
          <Form.Item>
            <Button htmlType="submit" loading={tokens.isFetching && !tokens.isPending}>
              {t('ui.search')}
            </Button>
          </Form.Item>
        </Form>
      </Flex>

      {tokens.isPending ? (
        <Skeleton active paragraph={{ rows: 6 }} data-testid="token-skeleton" />
      ) : (
        <List
          tokens={tokens.data?.items ?? []}
          loading={tokens.isFetching}
          pagination={pagination}
          selectedKeys={selection.keys}
          onSelect={selection.onSelect}
          onToggleStatus={onToggleStatus}
          togglingId={updateStatus.isPending ? updateStatus.variables?.id : undefined}
          onCopy={(token) => void copy(displayKey(token.key), t('token.key_copied'))}
          onEdit={(token) => setDrawer({ open: true, token })}
          onDelete={onDelete}
          empty={empty}
        />
      )}
    </ListPageCard>
  );
}
