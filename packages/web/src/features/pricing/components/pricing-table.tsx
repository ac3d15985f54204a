import { type ModelHealthView, PAGE_SIZES } from '@gateway/shared';
import { Table, type TableColumnsType } from 'antd';
import type { Key, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PricingRow } from '../pricing-view';
import { ModelHealthCell } from './model-health-cell';
import { AvailabilityMark, BillingTag, GroupTags, ModelName, PriceLines, RatioLines } from './pricing-cells';

export interface PricingListProps {
  rows: PricingRow[];
  viewed: string;
  groupRatio: number;
  selectedKeys: string[];
  onSelect: (names: string[]) => void;
  onCopyName: (name: string) => void;
  onSwitchGroup: (group: string) => void;
  /** The last hour per model on this gateway (undefined until it arrives or when it failed). */
  health: Record<string, ModelHealthView> | undefined;
  healthLoading: boolean;
  empty: ReactNode;
}

/** The price list on a wide screen: one row per model, available models first (spec 001 "Pricing"). */
export function PricingTable({
  rows,
  viewed,
  groupRatio,
  selectedKeys,
  onSelect,
  onCopyName,
  onSwitchGroup,
  health,
  healthLoading,
  empty,
}: PricingListProps) {
  const { t } = useTranslation();
  const columns: TableColumnsType<PricingRow> = [
    {
      title: t('pricing.col_available'),
      dataIndex: 'available',
      width: 96,
      align: 'center',
      // Stable sort: models of the same availability keep the server's order.
      sorter: (a, b) => Number(a.available) - Number(b.available),
      defaultSortOrder: 'descend',
      sortDirections: ['descend', 'ascend', 'descend'],
      render: (available: boolean) => <AvailabilityMark available={available} />,
    },
    {
      title: t('pricing.col_model'),
      dataIndex: 'model_name',
      width: 280,
      render: (_name: string, row) => <ModelName row={row} onCopy={onCopyName} />,
    },
    {
      title: t('pricing.col_billing'),
      dataIndex: 'quota_type',
      width: 110,
      render: (_value, row) => <BillingTag row={row} />,
    },
    {
      title: t('pricing.col_groups'),
      dataIndex: 'enable_groups',
      // Room for the header and a couple of group tags: without it the header wrapped a character per line.
      width: 160,
      render: (groups: string[]) => <GroupTags groups={groups} viewed={viewed} onSwitch={onSwitchGroup} />,
    },
    {
      title: t('pricing.col_ratio'),
      key: 'ratio',
      width: 190,
      render: (_value, row) => <RatioLines row={row} groupRatio={groupRatio} />,
    },
    {
      title: t('pricing.col_price'),
      key: 'price',
      width: 260,
      render: (_value, row) => <PriceLines row={row} />,
    },
    {
      title: t('model_health.column'),
      key: 'health',
      width: 220,
      render: (_value, row) => <ModelHealthCell health={health?.[row.model_name]} loading={healthLoading} />,
    },
  ];
  return (
    <Table<PricingRow>
      data-testid="pricing-table"
      rowKey="model_name"
      size="middle"
      columns={columns}
      dataSource={rows}
      locale={{ emptyText: empty }}
      rowSelection={{
        selectedRowKeys: selectedKeys,
        preserveSelectedRowKeys: true,
        onChange: (keys: Key[]) => onSelect(keys.map(String)),
      }}
      pagination={{
        defaultPageSize: 10,
        showSizeChanger: true,
        pageSizeOptions: PAGE_SIZES.map(String),
        showTotal: (total) => t('ui.total', { total }),
      }}
      scroll={{ x: 1180 }}
    />
  );
}
