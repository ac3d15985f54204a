import { CopyOutlined, GiftOutlined, PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { RedemptionStatus } from '@gateway/shared';
import { Button, Flex, Form, Input, Skeleton, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListEmpty } from '../../../components/list/list-empty';
import { ListPageCard } from '../../../components/list/list-page-card';
import { readPageSize } from '../../../components/list/page-size';
import { useServerPagination } from '../../../components/list/server-pagination';
import { useRowSelection } from '../../../components/list/use-row-selection';
import { useCopyText } from '../../../hooks/use-copy-text';
import { notify } from '../../../lib/notify';
import { useIsMobile } from '../../../lib/use-media-query';
import { useDeleteRedemption } from '../api/use-delete-redemption';
import { useRedemptions } from '../api/use-redemptions';
import { useUpdateRedemptionStatus } from '../api/use-update-redemption-status';
import { CreatedKeysModal } from '../components/created-keys-modal';
import { RedemptionCards } from '../components/redemption-cards';
import { RedemptionFormDrawer } from '../components/redemption-form-drawer';
import { RedemptionTable } from '../components/redemption-table';
import '../redemption.css';
import type { Redemption, RedemptionListQuery } from '../types';

interface SearchValues {
  keyword?: string;
}

/** The edited row stays set while the drawer closes, so its content does not flip to the create form. */
interface DrawerState {
  open: boolean;
  code?: Redemption;
}

interface CreatedState {
  keys: string[] | null;
  name: string;
}

export default function RedemptionPage() {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const List = isMobile ? RedemptionCards : RedemptionTable;
  const [query, setQuery] = useState<RedemptionListQuery>(() => ({ page: 1, pageSize: readPageSize(), keyword: '' }));
  const codes = useRedemptions(query);
  const updateStatus = useUpdateRedemptionStatus();
  const deleteOne = useDeleteRedemption();
  const { copy, fallback } = useCopyText();
  const [drawer, setDrawer] = useState<DrawerState>({ open: false });
  const [created, setCreated] = useState<CreatedState>({ keys: null, name: '' });
  const selection = useRowSelection<Redemption>();
  const searching = query.keyword.trim() !== '';
  const pagination = useServerPagination(query, setQuery, codes.data?.total ?? 0);

  const onSearch = (values: SearchValues) =>
    setQuery((previous) => ({ ...previous, page: 1, keyword: values.keyword ?? '' }));

  const onToggleStatus = (code: Redemption) => {
    const status = code.status === RedemptionStatus.Unused ? RedemptionStatus.Disabled : RedemptionStatus.Unused;
    updateStatus.mutate(
      { id: code.id, status },
      {
        onSuccess: () =>
          notify.success(
            status === RedemptionStatus.Unused ? t('redemption.enabled_done') : t('redemption.disabled_done'),
          ),
      },
    );
  };

  const onDelete = (code: Redemption) =>
    deleteOne.mutate(code.id, {
      onSuccess: () => {
        notify.success(t('redemption.deleted'));
        selection.forget(code.id);
      },
    });

  const onCopySelected = () => {
    if (selection.size === 0) {
      notify.error(t('redemption.select_first'));
      return;
    }
    const rows = selection.rows();
    void copy(rows.map((row) => row.key).join('\n'), t('redemption.keys_copied', { count: rows.length }));
  };

  const openCreate = () => setDrawer({ open: true });

  const empty = (
    <ListEmpty
      failed={codes.isError}
      failedText={t('redemption.load_failed')}
      onRetry={() => void codes.refetch()}
      filtered={searching}
      noMatchText={t('redemption.no_match')}
      icon={<GiftOutlined className="empty-icon" />}
      emptyText={t('redemption.empty')}
    >
      <Button type="primary" icon={<PlusOutlined />} onClick={openCreate}>
        {t('redemption.create')}
      </Button>
    </ListEmpty>
  );

  return (
    <ListPageCard
      title={t('redemption.title')}
      subtitle={t('redemption.subtitle')}
      overlays={
        <>
          <RedemptionFormDrawer
            open={drawer.open}
            code={drawer.code}
            onClose={() => setDrawer((previous) => ({ ...previous, open: false }))}
            onCreated={(keys, name) => setCreated({ keys, name })}
          />
          <CreatedKeysModal
            keys={created.keys}
            name={created.name}
            onCopy={(text, successText) => void copy(text, successText)}
            onClose={() => setCreated((previous) => ({ ...previous, keys: null }))}
          />
          {fallback}
        </>
      }
    >
      <Flex gap={12} wrap justify="space-between" align="flex-start">
        <Space wrap>
          <Button type="primary" icon={<PlusOutlined />} onClick={openCreate} data-testid="redemption-create">
            {t('redemption.create')}
          </Button>
          <Button icon={<CopyOutlined />} onClick={onCopySelected}>
            {t('redemption.copy_selected')}
          </Button>
          {selection.size > 0 && (
            <Typography.Text type="secondary">{t('ui.selected_count', { count: selection.size })}</Typography.Text>
          )}
        </Space>
        <Form<SearchValues> layout="inline" onFinish={onSearch} className="redemption-search">
          <Form.Item name="keyword">
            <Input
              allowClear
              prefix={<SearchOutlined />}
              placeholder={t('redemption.search_keyword')}
              aria-label={t('redemption.search_keyword')}
            />
          </Form.Item>
          <Form.Item>
            <Button htmlType="submit" loading={codes.isFetching && !codes.isPending}>
              {t('ui.search')}
            </Button>
          </Form.Item>
        </Form>
      </Flex>

      {codes.isPending ? (
        <Skeleton active paragraph={{ rows: 6 }} data-testid="redemption-skeleton" />
      ) : (
        <List
          codes={codes.data?.items ?? []}
          loading={codes.isFetching}
          pagination={pagination}
          selectedKeys={selection.keys}
          onSelect={selection.onSelect}
          onToggleStatus={onToggleStatus}
          togglingId={updateStatus.isPending ? updateStatus.variables?.id : undefined}
          onCopy={(code) => void copy(code.key, t('redemption.key_copied'))}
          onEdit={(code) => setDrawer({ open: true, code })}
          onDelete={onDelete}
          empty={empty}
        />
      )}
    </ListPageCard>
  );
}
