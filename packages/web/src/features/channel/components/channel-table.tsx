import {
  CheckCircleOutlined,
  CloudSyncOutlined,
  CopyOutlined,
  DeleteOutlined,
  DownOutlined,
  EditOutlined,
  MoreOutlined,
  StopOutlined,
  TagsOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';
import { CHANNEL_PRIORITY_MIN, ChannelStatus } from '@gateway/shared';
import { Button, Dropdown, Space, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType, TablePaginationConfig } from 'antd/es/table';
import { type Key, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListTable } from '../../../components/list/list-table';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import { type ChannelRow, commaList } from '../channel-view';
import type { Channel } from '../types';
import {
  BalanceCell,
  ChannelName,
  ChannelStatusTag,
  ChannelTypeTag,
  GroupTags,
  InlineNumber,
  LatencyTag,
} from './channel-cells';
import { UpstreamModelsModal } from './upstream-models-modal';

/** The columns a visitor may hide (id … weight); actions always stay. */
export const HIDEABLE_COLUMNS = [
  { key: 'id', labelKey: 'channel.col_id' },
  { key: 'name', labelKey: 'channel.col_name' },
  { key: 'group', labelKey: 'channel.col_group' },
  { key: 'type', labelKey: 'channel.col_type' },
  { key: 'status', labelKey: 'channel.col_status' },
  { key: 'response_time', labelKey: 'channel.col_response_time' },
  { key: 'balance', labelKey: 'channel.col_balance' },
  { key: 'priority', labelKey: 'channel.col_priority' },
  { key: 'weight', labelKey: 'channel.col_weight' },
] as const;

export interface ChannelActions {
  test: (channel: Channel, model?: string) => void;
  testingId: number | undefined;
  /** Why each channel's last test from this page failed (by id); a later success clears it. */
  testFailures: Record<number, string>;
  updateBalance: (channel: Channel) => void;
  balancingId: number | undefined;
  setStatus: (channel: Channel, enabled: boolean) => void;
  patch: (channel: Channel, field: 'priority' | 'weight', value: number) => void;
  copy: (channel: Channel) => void;
  remove: (channel: Channel) => void;
  setTagStatus: (tag: string, enabled: boolean) => void;
  patchTag: (tag: string, field: 'priority' | 'weight', value: number) => void;
  editTag: (tag: string, channels: Channel[]) => void;
}

export interface ChannelTableProps {
  /** Phone layout: no pinned column, so the narrow screen is not taken by the actions alone. */
  compact: boolean;
  rows: ChannelRow[];
  loading: boolean;
  pagination: TablePaginationConfig;
  hiddenColumns: string[];
  tagMode: boolean;
  selectedKeys: Key[];
  onSelect: (keys: Key[]) => void;
  actions: ChannelActions;
  empty: ReactNode;
}

/** The value shared by every channel of a tag, or null when they differ. */
function common(channels: Channel[], field: 'priority' | 'weight'): number | null {
  const first = channels[0]?.[field];
  return first !== undefined && channels.every((channel) => channel[field] === first) ? first : null;
}

export function ChannelRowActions({ channel, actions }: { channel: Channel; actions: ChannelActions }) {
  const { t } = useTranslation();
  const [watching, setWatching] = useState(false);
  const models = commaList(channel.models);
  const enabled = channel.status === ChannelStatus.Enabled;
  return (
    <Space size={4} wrap={false}>
      <Space.Compact size="small">
        <Tooltip title={t('channel.test')}>
          <Button
            icon={<ThunderboltOutlined />}
            aria-label={t('channel.test')}
            loading={actions.testingId === channel.id}
            onClick={() => actions.test(channel)}
          />
        </Tooltip>
        <Dropdown
          trigger={['click']}
          disabled={models.length === 0}
          menu={{
            items: models.map((model) => ({ key: model, label: model })),
            onClick: ({ key }) => actions.test(channel, key),
            style: { maxHeight: 320, overflowY: 'auto' },
          }}
        >
          <Button icon={<DownOutlined />} aria-label={t('channel.test_with_model')} />
        </Dropdown>
      </Space.Compact>
      <Tooltip title={enabled ? t('channel.disable') : t('channel.enable')}>
        <Button
          size="small"
          danger={enabled}
          icon={enabled ? <StopOutlined /> : <CheckCircleOutlined />}
          aria-label={enabled ? t('channel.disable') : t('channel.enable')}
          onClick={() => actions.setStatus(channel, !enabled)}
        />
      </Tooltip>
      <Tooltip title={t('ui.edit')}>
        <Link to={`/channel/edit/${channel.id}`} aria-label={t('ui.edit')}>
          <Button size="small" icon={<EditOutlined />} tabIndex={-1} />
        </Link>
      </Tooltip>
      <Dropdown
        trigger={['click']}
        menu={{
          items: [
            { key: 'copy', icon: <CopyOutlined />, label: t('channel.copy') },
            { key: 'upstream', icon: <CloudSyncOutlined />, label: t('upstream_watch.menu') },
            { key: 'delete', icon: <DeleteOutlined />, label: t('ui.delete'), danger: true },
          ],
          onClick: ({ key }) => {
            if (key === 'copy') actions.copy(channel);
            else if (key === 'upstream') setWatching(true);
            else actions.remove(channel);
          },
        }}
      >
        <Button size="small" icon={<MoreOutlined />} aria-label={t('channel.more_actions')} />
      </Dropdown>
      {watching && <UpstreamModelsModal channel={channel} open onClose={() => setWatching(false)} />}
    </Space>
  );
}

export function TagRowActions({
  tag,
  channels,
  actions,
}: {
  tag: string;
  channels: Channel[];
  actions: ChannelActions;
}) {
  const { t } = useTranslation();
  return (
    <Space size={4} wrap={false}>
      <Tooltip title={t('channel.tag_enable_all')}>
        <Button
          size="small"
          icon={<CheckCircleOutlined />}
          aria-label={t('channel.tag_enable_all')}
          onClick={() => actions.setTagStatus(tag, true)}
        />
      </Tooltip>
      <Tooltip title={t('channel.tag_disable_all')}>
        <Button
          size="small"
          danger
          icon={<StopOutlined />}
          aria-label={t('channel.tag_disable_all')}
          onClick={() => actions.setTagStatus(tag, false)}
        />
      </Tooltip>
      <Button size="small" icon={<EditOutlined />} onClick={() => actions.editTag(tag, channels)}>
        {t('channel.tag_edit')}
      </Button>
    </Space>
  );
}

export function ChannelTable({
  compact,
  rows,
  loading,
  pagination,
  hiddenColumns,
  tagMode,
  selectedKeys,
  onSelect,
  actions,
  empty,
}: ChannelTableProps) {
  const { t } = useTranslation();
  const formatQuota = useFormatQuota();

  const columns: ColumnsType<ChannelRow> = [
    {
      key: 'id',
      title: t('channel.col_id'),
      width: 72,
      render: (_, row) => (row.kind === 'channel' ? row.channel.id : null),
    },
    {
      key: 'name',
      title: t('channel.col_name'),
      className: 'nowrap',
      render: (_, row) =>
        row.kind === 'channel' ? (
          <ChannelName channel={row.channel} showTag={!tagMode} />
        ) : (
          <Space size={6} wrap={false}>
            <TagsOutlined />
            <Typography.Text strong>{row.tag}</Typography.Text>
            <Tag variant="filled">{t('channel.tag_count', { count: row.channels.length })}</Tag>
          </Space>
        ),
    },
    {
      key: 'group',
      title: t('channel.col_group'),
      render: (_, row) =>
        row.kind === 'channel' ? (
          <GroupTags groups={commaList(row.channel.group)} />
        ) : (
          <GroupTags groups={[...new Set(row.channels.flatMap((channel) => commaList(channel.group)))]} />
        ),
    },
    {
      key: 'type',
      title: t('channel.col_type'),
      render: (_, row) =>
        row.kind === 'channel' ? (
          <ChannelTypeTag type={row.channel.type} />
        ) : (
          <Space size={[2, 4]} wrap>
            {[...new Set(row.channels.map((channel) => channel.type))].map((type) => (
              <ChannelTypeTag key={type} type={type} />
            ))}
          </Space>
        ),
    },
    {
      key: 'status',
      title: t('channel.col_status'),
      render: (_, row) => {
        if (row.kind === 'channel') return <ChannelStatusTag channel={row.channel} />;
        const enabled = row.channels.filter((channel) => channel.status === ChannelStatus.Enabled).length;
        const color = enabled === row.channels.length ? 'green' : enabled === 0 ? 'red' : 'orange';
        return (
          <Tag color={color} variant="filled">
            {t('channel.tag_enabled_count', { enabled, total: row.channels.length })}
          </Tag>
        );
      },
    },
    {
      key: 'response_time',
      title: t('channel.col_response_time'),
      render: (_, row) =>
        row.kind === 'channel' ? (
          <LatencyTag
            channel={row.channel}
            testing={actions.testingId === row.channel.id}
            failure={actions.testFailures[row.channel.id]}
            onTest={() => actions.test(row.channel)}
          />
        ) : null,
    },
    {
      key: 'balance',
      title: t('channel.col_balance'),
      render: (_, row) =>
        row.kind === 'channel' ? (
          <BalanceCell
            channel={row.channel}
            updating={actions.balancingId === row.channel.id}
            onUpdate={() => actions.updateBalance(row.channel)}
          />
        ) : (
          <Tag variant="filled">
            {t('channel.used', {
              value: formatQuota(row.channels.reduce((sum, channel) => sum + channel.used_quota, 0)),
            })}
          </Tag>
        ),
    },
    {
      key: 'priority',
      title: t('channel.col_priority'),
      render: (_, row) =>
        row.kind === 'channel' ? (
          <InlineNumber
            value={row.channel.priority}
            min={CHANNEL_PRIORITY_MIN}
            label={t('channel.priority_of', { name: row.channel.name })}
            invalidMessage={t('errors:channel_priority_invalid')}
            onSave={(value) => actions.patch(row.channel, 'priority', value)}
          />
        ) : (
          <InlineNumber
            value={common(row.channels, 'priority')}
            min={CHANNEL_PRIORITY_MIN}
            placeholder={t('channel.mixed')}
            label={t('channel.priority_of', { name: row.tag })}
            invalidMessage={t('errors:channel_priority_invalid')}
            onSave={(value) => actions.patchTag(row.tag, 'priority', value)}
          />
        ),
    },
    {
      key: 'weight',
      title: t('channel.col_weight'),
      render: (_, row) =>
        row.kind === 'channel' ? (
          <InlineNumber
            value={row.channel.weight}
            min={0}
            label={t('channel.weight_of', { name: row.channel.name })}
            invalidMessage={t('errors:channel_weight_invalid')}
            onSave={(value) => actions.patch(row.channel, 'weight', value)}
          />
        ) : (
          <InlineNumber
            value={common(row.channels, 'weight')}
            min={0}
            placeholder={t('channel.mixed')}
            label={t('channel.weight_of', { name: row.tag })}
            invalidMessage={t('errors:channel_weight_invalid')}
            onSave={(value) => actions.patchTag(row.tag, 'weight', value)}
          />
        ),
    },
    {
      key: 'actions',
      title: t('ui.actions'),
      fixed: compact ? undefined : 'right',
      render: (_, row) =>
        row.kind === 'channel' ? (
          <ChannelRowActions channel={row.channel} actions={actions} />
        ) : (
          <TagRowActions tag={row.tag} channels={row.channels} actions={actions} />
        ),
    },
  ];

  return (
    <ListTable<ChannelRow>
      testId="channel-table"
      empty={empty}
      rowKey="key"
      columns={columns.filter((column) => !hiddenColumns.includes(String(column.key)))}
      dataSource={rows}
      loading={loading}
      pagination={pagination}
      size="small"
      rowClassName={(row) => (row.kind === 'tag' ? 'channel-tag-row' : '')}
      rowSelection={{
        selectedRowKeys: selectedKeys,
        onChange: (keys) => onSelect(keys),
        getCheckboxProps: (row) => ({ disabled: row.kind === 'tag' }),
      }}
    />
  );
}
