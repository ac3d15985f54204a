import { Typography } from 'antd';
import type { ColumnsType, TablePaginationConfig } from 'antd/es/table';
import type { Key, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ListTable } from '../../../components/list/list-table';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import type { Redemption } from '../types';
import {
  ExpiryText,
  formatTime,
  KeyCell,
  RedeemedBy,
  type RedemptionActionHandlers,
  RedemptionActions,
  StatusTag,
} from './redemption-cells';

export interface RedemptionListProps extends RedemptionActionHandlers {
  codes: Redemption[];
  loading: boolean;
  pagination: TablePaginationConfig;
  selectedKeys: Key[];
  onSelect: (keys: Key[], rows: Redemption[]) => void;
  empty: ReactNode;
}

export function RedemptionTable({
  codes,
  loading,
  pagination,
  selectedKeys,
  onSelect,
  empty,
  ...handlers
}: RedemptionListProps) {
  const { t } = useTranslation();
  const formatQuota = useFormatQuota();

  const columns: ColumnsType<Redemption> = [
    { key: 'id', title: t('redemption.col_id'), dataIndex: 'id', width: 72 },
    {
      key: 'name',
      title: t('redemption.col_name'),
      dataIndex: 'name',
      render: (name: string) => <Typography.Text strong>{name}</Typography.Text>,
    },
    { key: 'status', title: t('redemption.col_status'), render: (_, code) => <StatusTag code={code} /> },
    {
      key: 'quota',
      title: t('redemption.col_quota'),
      dataIndex: 'quota',
      render: (quota: number) => <span className="nowrap">{formatQuota(quota)}</span>,
    },
    {
      key: 'key',
      title: t('redemption.col_key'),
      render: (_, code) => <KeyCell codeKey={code.key} onCopy={() => handlers.onCopy(code)} />,
    },
    {
      key: 'created_time',
      title: t('redemption.col_created'),
      dataIndex: 'created_time',
      render: (seconds: number) => <span className="nowrap">{formatTime(seconds)}</span>,
    },
    { key: 'redeemed', title: t('redemption.col_redeemed'), render: (_, code) => <RedeemedBy code={code} /> },
    {
      key: 'expired_time',
      title: t('redemption.col_expiry'),
      dataIndex: 'expired_time',
      render: (seconds: number) => <ExpiryText seconds={seconds} />,
    },
    {
      key: 'actions',
      title: t('ui.actions'),
      fixed: 'right',
      render: (_, code) => <RedemptionActions code={code} {...handlers} />,
    },
  ];

  return (
    <ListTable<Redemption>
      testId="redemption-table"
      empty={empty}
      columns={columns}
      dataSource={codes}
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
