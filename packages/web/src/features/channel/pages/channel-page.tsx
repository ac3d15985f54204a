import {
  ApiOutlined,
  DeleteOutlined,
  DollarOutlined,
  PlusOutlined,
  SearchOutlined,
  TagOutlined,
  ThunderboltOutlined,
  ToolOutlined,
} from '@ant-design/icons';
import { ChannelStatus } from '@gateway/shared';
import { App, Button, Flex, Form, Input, Popconfirm, Select, Skeleton, Space, Switch, Typography } from 'antd';
import { type Key, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListEmpty } from '../../../components/list/list-empty';
import { ListPageCard } from '../../../components/list/list-page-card';
import { readPageSize } from '../../../components/list/page-size';
import { useServerPagination } from '../../../components/list/server-pagination';
import { ApiError } from '../../../lib/api';
import { notify } from '../../../lib/notify';
import { useIsMobile } from '../../../lib/use-media-query';
import { useChannels } from '../api/use-channels';
import { useCopyChannel } from '../api/use-copy-channel';
import { useDeleteChannel } from '../api/use-delete-channel';
import { useDeleteChannels } from '../api/use-delete-channels';
import { useDeleteDisabledChannels } from '../api/use-delete-disabled-channels';
import { useEditTag } from '../api/use-edit-tag';
import { useFixAbilities } from '../api/use-fix-abilities';
import { useGroups } from '../api/use-groups';
import { usePatchChannel } from '../api/use-patch-channel';
import { useSetTagStatus } from '../api/use-set-tag-status';
import { useTestAllChannels } from '../api/use-test-all-channels';
import { useTestChannel } from '../api/use-test-channel';
import { useUpdateAllBalances } from '../api/use-update-all-balances';
import { useUpdateBalance } from '../api/use-update-balance';
import '../channel.css';
import {
  readHiddenColumns,
  readIdSort,
  readTagMode,
  writeHiddenColumns,
  writeIdSort,
  writeTagMode,
} from '../channel-prefs';
import { buildChannelRows } from '../channel-view';
import { BatchTagModal } from '../components/batch-tag-modal';
import { ChannelCards } from '../components/channel-cards';
import { type ChannelActions, ChannelTable } from '../components/channel-table';
import { ColumnSettings } from '../components/column-settings';
import { EditTagModal } from '../components/edit-tag-modal';
import { TestProgressModal } from '../components/test-progress-modal';
import type { ChannelListQuery } from '../types';

interface SearchValues {
  keyword?: string;
  group?: string;
  model?: string;
}

function idsOf(keys: Key[]): number[] {
  return keys
    .map((key) => String(key))
    .filter((key) => key.startsWith('c'))
    .map((key) => Number(key.slice(1)));
}

export default function ChannelPage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const isMobile = useIsMobile();
  const ChannelList = isMobile ? ChannelCards : ChannelTable;
  const [query, setQuery] = useState<ChannelListQuery>(() => ({
    page: 1,
    pageSize: readPageSize(),
    idSort: readIdSort(),
    tagMode: readTagMode(),
    keyword: '',
    group: '',
    model: '',
  }));
  const [hiddenColumns, setHiddenColumns] = useState<string[]>(readHiddenColumns);
  const [selectedKeys, setSelectedKeys] = useState<Key[]>([]);
  const [progressOpen, setProgressOpen] = useState(false);
  const [batchTagOpen, setBatchTagOpen] = useState(false);
  const [editingTag, setEditingTag] = useState<string | null>(null);

  const channels = useChannels(query);
  const groups = useGroups();
  const testChannel = useTestChannel();
  const [testFailures, setTestFailures] = useState<Record<number, string>>({});
  const testAll = useTestAllChannels();
  const updateBalance = useUpdateBalance();
  const updateAllBalances = useUpdateAllBalances();
  const patchChannel = usePatchChannel();
  const copyChannel = useCopyChannel();
  const deleteChannel = useDeleteChannel();
  const deleteChannels = useDeleteChannels();
  const deleteDisabled = useDeleteDisabledChannels();
  const fixAbilities = useFixAbilities();
  const setTagStatus = useSetTagStatus();
  const editTag = useEditTag();

  const rows = useMemo(
    () => buildChannelRows(channels.data?.items ?? [], query.tagMode),
    [channels.data, query.tagMode],
  );
  const selectedIds = idsOf(selectedKeys);
  const filtered = Boolean(query.keyword.trim() || query.group || query.model.trim());
  const pagination = useServerPagination(query, setQuery, channels.data?.total ?? 0, (total) =>
    query.tagMode ? t('channel.total_rows', { total }) : t('ui.total', { total }),
  );

  const update = (change: Partial<ChannelListQuery>) => {
    setSelectedKeys([]);
    setQuery((previous) => ({ ...previous, page: 1, ...change }));
  };

  const actions: ChannelActions = {
    test: (channel, model) =>
      testChannel.mutate(
        { id: channel.id, model },
        {
          onSuccess: (result) => {
            setTestFailures(({ [channel.id]: _cleared, ...rest }) => rest);
            notify.success(
              t('channel.test_success', { name: channel.name, model: model ?? '', time: result.time.toFixed(2) }),
            );
          },
          // The toast names the channel and the reason: with several channels, "failed" alone says nothing.
          onError: (error) => {
            if (error instanceof ApiError && error.kind === 'unauthorized') return;
            const reason = error.message || t('channel.disabled_reason_unknown');
            setTestFailures((failures) => ({ ...failures, [channel.id]: reason }));
            notify.error(t('channel.test_failed_toast', { name: channel.name, reason }));
          },
        },
      ),
    testingId: testChannel.isPending ? testChannel.variables?.id : undefined,
    testFailures,
    updateBalance: (channel) =>
      updateBalance.mutate(channel.id, {
        onSuccess: (balance) =>
          notify.success(t('channel.balance_done', { name: channel.name, balance: balance.toFixed(2) })),
      }),
    balancingId: updateBalance.isPending ? updateBalance.variables : undefined,
    setStatus: (channel, enabled) =>
      patchChannel.mutate(
        { id: channel.id, status: enabled ? ChannelStatus.Enabled : ChannelStatus.ManuallyDisabled },
        { onSuccess: () => notify.success(enabled ? t('channel.enabled_done') : t('channel.disabled_done')) },
      ),
    patch: (channel, field, value) =>
      patchChannel.mutate(
        field === 'priority' ? { id: channel.id, priority: value } : { id: channel.id, weight: value },
        { onSuccess: () => notify.success(t('channel.saved')) },
      ),
    copy: (channel) =>
      copyChannel.mutate(channel.id, {
        onSuccess: (copy) => notify.success(t('channel.copied', { id: copy?.id ?? '' })),
      }),
    remove: (channel) =>
      modal.confirm({
        title: t('channel.delete_confirm', { name: channel.name }),
        content: t('channel.delete_confirm_help'),
        okText: t('ui.delete'),
        okButtonProps: { danger: true },
        cancelText: t('ui.cancel'),
        onOk: () =>
          deleteChannel.mutateAsync(channel.id, {
            onSuccess: () => {
              notify.success(t('channel.deleted'));
              setSelectedKeys((keys) => keys.filter((key) => key !== `c${channel.id}`));
            },
          }),
      }),
    setTagStatus: (tag, enabled) =>
      setTagStatus.mutate(
        { tag, enabled },
        { onSuccess: () => notify.success(enabled ? t('channel.tag_enabled_done') : t('channel.tag_disabled_done')) },
      ),
    patchTag: (tag, field, value) =>
      editTag.mutate({ tag, [field]: value }, { onSuccess: () => notify.success(t('channel.tag_saved')) }),
    editTag: (tag) => setEditingTag(tag),
  };

  const onTestAll = () =>
    testAll.mutate(undefined, {
      onSuccess: (envelope) => {
        if (envelope.message) notify.info(envelope.message);
        setProgressOpen(true);
      },
    });

  const onUpdateAllBalances = () =>
    updateAllBalances.mutate(undefined, {
      onSuccess: (result) => notify.success(t('errors:channel_balance_updated', result)),
    });

  const onDeleteDisabled = () =>
    deleteDisabled.mutateAsync(undefined, {
      onSuccess: (count) => notify.success(t('channel.deleted_disabled', { count: count ?? 0 })),
    });

  const onFix = () =>
    fixAbilities.mutate(undefined, {
      onSuccess: (result) =>
        modal.success({
          title: t('channel.fix_done'),
          content: t('channel.fix_result', { success: result?.success ?? 0, fails: result?.fails ?? 0 }),
          okText: t('ui.close'),
        }),
    });

  const onDeleteSelected = () => {
    if (selectedIds.length === 0) {
      notify.error(t('channel.select_delete_first'));
      return;
    }
    modal.confirm({
      title: t('channel.delete_selected_confirm', { count: selectedIds.length }),
      okText: t('ui.delete'),
      okButtonProps: { danger: true },
      cancelText: t('ui.cancel'),
      onOk: () =>
        deleteChannels.mutateAsync(selectedIds, {
          onSuccess: (count) => {
            notify.success(t('errors:deleted_count', { count: count ?? selectedIds.length }));
            setSelectedKeys([]);
          },
        }),
    });
  };

  const onBatchTag = () => {
    if (selectedIds.length === 0) {
      notify.error(t('errors:channel_select_first'));
      return;
    }
    setBatchTagOpen(true);
  };

  const onSearch = (values: SearchValues) =>
    update({ keyword: values.keyword ?? '', group: values.group ?? '', model: values.model ?? '' });

  const empty = (
    <ListEmpty
      failed={channels.isError}
      failedText={t('channel.load_failed')}
      onRetry={() => void channels.refetch()}
      filtered={filtered}
      noMatchText={t('channel.no_match')}
      icon={<ApiOutlined className="empty-icon" />}
      emptyText={t('channel.empty')}
    >
      <Link to="/channel/add">
        <Button type="primary" icon={<PlusOutlined />}>
          {t('channel.add')}
        </Button>
      </Link>
    </ListEmpty>
  );

  return (
    <ListPageCard
      title={t('channel.title')}
      subtitle={t('channel.subtitle')}
      extra={
        <Space wrap>
          <span className="switch-label">
            <Switch
              size="small"
              checked={query.idSort}
              onChange={(on) => {
                writeIdSort(on);
                update({ idSort: on });
              }}
              aria-label={t('channel.id_sort')}
            />
            {t('channel.id_sort')}
          </span>
          <span className="switch-label">
            <Switch
              size="small"
              checked={query.tagMode}
              onChange={(on) => {
                writeTagMode(on);
                update({ tagMode: on });
              }}
              aria-label={t('channel.tag_mode')}
            />
            {t('channel.tag_mode')}
          </span>
          <ColumnSettings
            hidden={hiddenColumns}
            onChange={(hidden) => {
              writeHiddenColumns(hidden);
              setHiddenColumns(hidden);
            }}
          />
        </Space>
      }
      overlays={
        <>
          <TestProgressModal open={progressOpen} onClose={() => setProgressOpen(false)} />
          <BatchTagModal
            ids={selectedIds}
            open={batchTagOpen}
            onClose={(done) => {
              setBatchTagOpen(false);
              if (done) setSelectedKeys([]);
            }}
          />
          <EditTagModal tag={editingTag} onClose={() => setEditingTag(null)} />
        </>
      }
    >
      <Space wrap>
        <Link to="/channel/add">
          <Button type="primary" icon={<PlusOutlined />} data-testid="channel-add">
            {t('channel.add')}
          </Button>
        </Link>
        <Button
          icon={<ThunderboltOutlined />}
          onClick={onTestAll}
          loading={testAll.isPending}
          data-testid="channel-test-all"
        >
          {t('channel.test_all')}
        </Button>
        <Button icon={<DollarOutlined />} onClick={onUpdateAllBalances} loading={updateAllBalances.isPending}>
          {t('channel.update_all_balances')}
        </Button>
        <Popconfirm
          title={t('channel.delete_disabled_confirm')}
          okText={t('ui.delete')}
          okButtonProps={{ danger: true }}
          cancelText={t('ui.cancel')}
          onConfirm={onDeleteDisabled}
        >
          <Button danger icon={<DeleteOutlined />} loading={deleteDisabled.isPending}>
            {t('channel.delete_disabled')}
          </Button>
        </Popconfirm>
        <Button icon={<ToolOutlined />} onClick={onFix} loading={fixAbilities.isPending}>
          {t('channel.fix')}
        </Button>
      </Space>

      <Form<SearchValues> layout="inline" onFinish={onSearch} className="table-search">
        <Form.Item name="keyword">
          <Input
            allowClear
            prefix={<SearchOutlined />}
            placeholder={t('channel.search_keyword')}
            aria-label={t('channel.search_keyword')}
            style={{ minWidth: 280 }}
          />
        </Form.Item>
        <Form.Item name="group">
          <Select
            allowClear
            placeholder={t('channel.search_group')}
            aria-label={t('channel.search_group')}
            loading={groups.isPending}
            options={(groups.data ?? []).map((group) => ({ value: group, label: group }))}
            style={{ minWidth: 160 }}
          />
        </Form.Item>
        <Form.Item name="model">
          <Input allowClear placeholder={t('channel.search_model')} aria-label={t('channel.search_model')} />
        </Form.Item>
        <Form.Item>
          <Button htmlType="submit" type="primary" ghost loading={channels.isFetching && !channels.isPending}>
            {t('ui.search')}
          </Button>
        </Form.Item>
      </Form>

      <Flex gap={8} align="center" wrap className="batch-bar">
        <Typography.Text type="secondary">{t('ui.selected_count', { count: selectedIds.length })}</Typography.Text>
        <Button
          size="small"
          danger
          icon={<DeleteOutlined />}
          onClick={onDeleteSelected}
          disabled={selectedIds.length === 0}
        >
          {t('channel.delete_selected')}
        </Button>
        <Button size="small" icon={<TagOutlined />} onClick={onBatchTag} disabled={selectedIds.length === 0}>
          {t('channel.batch_tag')}
        </Button>
      </Flex>

      {channels.isPending ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <ChannelList
          compact={isMobile}
          rows={rows}
          loading={channels.isFetching}
          tagMode={query.tagMode}
          hiddenColumns={hiddenColumns}
          selectedKeys={selectedKeys}
          onSelect={setSelectedKeys}
          actions={actions}
          empty={empty}
          pagination={pagination}
        />
      )}
    </ListPageCard>
  );
}
