import { CopyOutlined, DeleteOutlined, EditOutlined, EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';
import { TokenStatus } from '@gateway/shared';
import { Button, Popconfirm, Space, Switch, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType, TablePaginationConfig } from 'antd/es/table';
import dayjs from 'dayjs';
import { type Key, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FallbackModelsSummary } from '../../../components/fallback/fallback-models-summary';
import { TokenLimitsSummary } from '../../../components/limits/token-limits-summary';
import { ListTable } from '../../../components/list/list-table';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import { displayKey, maskKey, type Token } from '../types';
import { ChatMenu } from './chat-menu';

const STATUS_TAGS: Record<number, { color: string; labelKey: string }> = {
  [TokenStatus.Enabled]: { color: 'green', labelKey: 'token.status_enabled' },
  [TokenStatus.Disabled]: { color: 'red', labelKey: 'token.status_disabled' },
  [TokenStatus.Expired]: { color: 'orange', labelKey: 'token.status_expired' },
  [TokenStatus.Exhausted]: { color: 'gold', labelKey: 'token.status_exhausted' },
};

/** A token's status tag (colour and label key); a status this console does not know shows as unknown. */
export const statusTagOf = (token: Token) =>
  STATUS_TAGS[token.status] ?? { color: 'default', labelKey: 'token.status_unknown' };

/** The enable/disable switch beside a token's status, in the table and on the phone cards. */
export function TokenStatusSwitch({
  token,
  togglingId,
  onToggle,
}: {
  token: Token;
  togglingId: number | undefined;
  onToggle: (token: Token) => void;
}) {
  const { t } = useTranslation();
  const enabled = token.status === TokenStatus.Enabled;
  return (
    <Switch
      size="small"
      checked={enabled}
      loading={togglingId === token.id}
      onChange={() => onToggle(token)}
      aria-label={enabled ? t('token.disable') : t('token.enable')}
    />
  );
}

export function formatTime(seconds: number): string {
  return dayjs.unix(seconds).format('YYYY-MM-DD HH:mm:ss');
}

export function KeyCell({ tokenKey, onCopy }: { tokenKey: string; onCopy: () => void }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  return (
    <Space size={2} className="token-key">
      <Typography.Text code className="mono-text">
        {shown ? displayKey(tokenKey) : maskKey(tokenKey)}
      </Typography.Text>
      <Tooltip title={shown ? t('token.hide_key') : t('token.show_key')}>
        <Button
          type="text"
          size="small"
          icon={shown ? <EyeInvisibleOutlined /> : <EyeOutlined />}
          aria-label={shown ? t('token.hide_key') : t('token.show_key')}
          onClick={() => setShown(!shown)}
        />
      </Tooltip>
      <Tooltip title={t('token.copy_key')}>
        <Button type="text" size="small" icon={<CopyOutlined />} aria-label={t('token.copy_key')} onClick={onCopy} />
      </Tooltip>
    </Space>
  );
}

/**
 * Chat, edit and delete for one token: icon buttons with tooltips in the table, buttons with words on a phone card
 * (`labelled`). The caller lays them out.
 */
export function TokenActions({
  token,
  labelled = false,
  onEdit,
  onDelete,
}: {
  token: Token;
  labelled?: boolean;
  onEdit: (token: Token) => void;
  onDelete: (token: Token) => void;
}) {
  const { t } = useTranslation();
  const edit = (
    <Button size="small" icon={<EditOutlined />} aria-label={t('ui.edit')} onClick={() => onEdit(token)}>
      {labelled ? t('ui.edit') : null}
    </Button>
  );
  return (
    <>
      <ChatMenu tokenKey={token.key} />
      {labelled ? edit : <Tooltip title={t('ui.edit')}>{edit}</Tooltip>}
      <Popconfirm
        title={t('token.delete_confirm', { name: token.name })}
        okText={t('ui.delete')}
        okButtonProps={{ danger: true }}
        cancelText={t('ui.cancel')}
        onConfirm={() => onDelete(token)}
      >
        <Button size="small" danger icon={<DeleteOutlined />} aria-label={t('ui.delete')}>
          {labelled ? t('ui.delete') : null}
        </Button>
      </Popconfirm>
    </>
  );
}

export interface TokenListProps {
  tokens: Token[];
  loading: boolean;
  pagination: TablePaginationConfig;
  selectedKeys: Key[];
  onSelect: (keys: Key[], rows: Token[]) => void;
  onToggleStatus: (token: Token) => void;
  togglingId: number | undefined;
  onCopy: (token: Token) => void;
  onEdit: (token: Token) => void;
  onDelete: (token: Token) => void;
  empty: ReactNode;
}

export function TokenTable({
  tokens,
  loading,
  pagination,
  selectedKeys,
  onSelect,
  onToggleStatus,
  togglingId,
  onCopy,
  onEdit,
  onDelete,
  empty,
}: TokenListProps) {
  const { t } = useTranslation();
  const formatQuota = useFormatQuota();
  const now = Date.now() / 1000;

  const columns: ColumnsType<Token> = [
    {
      key: 'name',
      title: t('token.col_name'),
      dataIndex: 'name',
      render: (name: string) => <Typography.Text strong>{name}</Typography.Text>,
    },
    {
      key: 'status',
      title: t('token.col_status'),
      render: (_, token) => {
        const tag = statusTagOf(token);
        return (
          <Space size={6}>
            <TokenStatusSwitch token={token} togglingId={togglingId} onToggle={onToggleStatus} />
            <Tag color={tag.color} variant="filled">
              {t(tag.labelKey)}
            </Tag>
          </Space>
        );
      },
    },
    {
      key: 'key',
      title: t('token.col_key'),
      render: (_, token) => <KeyCell tokenKey={token.key} onCopy={() => onCopy(token)} />,
    },
    {
      key: 'quota',
      title: t('token.col_quota'),
      render: (_, token) => (
        <div className="token-quota">
          <Typography.Text type="secondary">
            {t('token.quota_used', { value: formatQuota(token.used_quota) })}
          </Typography.Text>
          <Typography.Text>
            {token.unlimited_quota
              ? t('token.quota_unlimited')
              : t('token.quota_remaining', { value: formatQuota(token.remain_quota) })}
          </Typography.Text>
        </div>
      ),
    },
    {
      key: 'limits',
      title: t('limits.col'),
      render: (_, token) => <TokenLimitsSummary token={token} />,
    },
    {
      key: 'fallback',
      title: t('fallback.col'),
      render: (_, token) => <FallbackModelsSummary models={token.fallback_models} />,
    },
    {
      key: 'group',
      title: t('token.col_group'),
      dataIndex: 'group',
      render: (group: string) =>
        group ? (
          <Tag color="blue" variant="filled">
            {group}
          </Tag>
        ) : (
          <Typography.Text type="secondary">{t('token.group_own_short')}</Typography.Text>
        ),
    },
    {
      key: 'created_time',
      title: t('token.col_created'),
      dataIndex: 'created_time',
      render: (seconds: number) => <span className="nowrap">{formatTime(seconds)}</span>,
    },
    {
      key: 'expired_time',
      title: t('token.col_expiry'),
      dataIndex: 'expired_time',
      render: (seconds: number) =>
        seconds === -1 ? (
          <Typography.Text type="secondary">{t('token.expiry_never')}</Typography.Text>
        ) : (
          <Typography.Text className="nowrap" type={seconds < now ? 'danger' : undefined}>
            {formatTime(seconds)}
          </Typography.Text>
        ),
    },
    {
      key: 'actions',
      title: t('ui.actions'),
      fixed: 'right',
      render: (_, token) => (
        <Space size={4} wrap={false}>
          <TokenActions token={token} onEdit={onEdit} onDelete={onDelete} />
        </Space>
      ),
    },
  ];

  return (
    <ListTable<Token>
      testId="token-table"
      empty={empty}
      columns={columns}
      dataSource={tokens}
      loading={loading}
      pagination={pagination}
      size="middle"
      rowSelection={{
        selectedRowKeys: selectedKeys,
        preserveSelectedRowKeys: true,
        onChange: onSelect,
      }}
    />
  );
}
