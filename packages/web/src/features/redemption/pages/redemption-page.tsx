import { CopyOutlined, GiftOutlined, PlusOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { PAGE_SIZES, RedemptionStatus } from '@gateway/shared';
import { Button, Card, Empty, Flex, Form, Input, Skeleton, Space, Typography } from 'antd';
import { type Key, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { useIsMobile } from '../../../lib/use-media-query';
import { readPageSize, writePageSize } from '../../token/token-prefs';
import { useCopyText } from '../../token/use-copy-text';
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
  // Rows are kept by id so a selection survives paging (the table only hands back rows of the current page).
  const [selected, setSelected] = useState<Map<number, Redemption>>(new Map());
  const searching = query.keyword.trim() !== '';

  const selectedKeys = useMemo(() => [...selected.keys()], [selected]);

  const onSelect = (keys: Key[], rows: Redemption[]) => {
    setSelected((previous) => {
      const next = new Map<number, Redemption>();
      for (const key of keys) {
        const id = Number(key);
        const row = rows.find((candidate) => candidate?.id === id) ?? previous.get(id);
        if (row) next.set(id, row);
      }
      return next;
    });
  };

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
        setSelected((previous) => {
          const next = new Map(previous);
          next.delete(code.id);
          return next;
        });
      },
    });

  const onCopySelected = () => {
    if (selected.size === 0) {
      notify.error(t('redemption.select_first'));
      return;
    }
    const rows = [...selected.values()];
    void copy(rows.map((row) => row.key).join('\n'), t('redemption.keys_copied', { count: rows.length }));
  };

  const openCreate = () => setDrawer({ open: true });

  const empty = codes.isError ? (
    <Empty description={t('redemption.load_failed')}>
      <Button icon={<ReloadOutlined />} onClick={() => void codes.refetch()}>
        {t('common.retry')}
      </Button>
    </Empty>
  ) : searching ? (
    <Empty description={t('redemption.no_match')} />
  ) : (
    <Empty image={<GiftOutlined className="empty-icon" />} description={t('redemption.empty')}>
      <Button type="primary" icon={<PlusOutlined />} onClick={openCreate}>
        {t('redemption.create')}
      </Button>
    </Empty>
  );

  return (
    <div className="page-container page-container-wide">
      <Card styles={{ body: { padding: isMobile ? 12 : 24 } }}>
        <Flex vertical gap={16}>
          <div>
            <Typography.Title level={4} style={{ margin: 0 }}>
              {t('redemption.title')}
            </Typography.Title>
            <Typography.Text type="secondary">{t('redemption.subtitle')}</Typography.Text>
          </div>

          <Flex gap={12} wrap justify="space-between" align="flex-start">
            <Space wrap>
              <Button type="primary" icon={<PlusOutlined />} onClick={openCreate} data-testid="redemption-create">
                {t('redemption.create')}
              </Button>
              <Button icon={<CopyOutlined />} onClick={onCopySelected}>
                {t('redemption.copy_selected')}
              </Button>
              {selected.size > 0 && (
                <Typography.Text type="secondary">{t('ui.selected_count', { count: selected.size })}</Typography.Text>
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
              pagination={{
                current: query.page,
                pageSize: query.pageSize,
                total: codes.data?.total ?? 0,
                showSizeChanger: true,
                pageSizeOptions: PAGE_SIZES.map(String),
                showTotal: (total) => t('ui.total', { total }),
                onChange: (page, pageSize) => {
                  if (pageSize !== query.pageSize) writePageSize(pageSize);
                  setQuery((previous) => ({
                    ...previous,
                    page: pageSize !== previous.pageSize ? 1 : page,
                    pageSize,
                  }));
                },
              }}
              selectedKeys={selectedKeys}
              onSelect={onSelect}
              onToggleStatus={onToggleStatus}
              togglingId={updateStatus.isPending ? updateStatus.variables?.id : undefined}
              onCopy={(code) => void copy(code.key, t('redemption.key_copied'))}
              onEdit={(code) => setDrawer({ open: true, code })}
              onDelete={onDelete}
              empty={empty}
            />
          )}
        </Flex>
      </Card>
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
    </div>
  );
}
