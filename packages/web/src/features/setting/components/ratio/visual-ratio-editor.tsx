import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { applyPricingRow, buildPricingRows, type ModelPricingRow, removePricingRow } from '@gateway/shared';
import { Alert, Button, Input, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OptionMap } from '../../option-form';
import { PricingRowModal, type RowEditPurpose } from './pricing-row-modal';
import { useModelTableState } from './pricing-table-state';
import { usePricingMaps } from './use-pricing-maps';

const nameOf = (row: ModelPricingRow) => row.name;

function money(value: number | undefined): string {
  return value === undefined ? '—' : `$${value}`;
}

/** A row per priced model: billing mode, ratios and the prices they mean; edit, add, delete. */
export function VisualRatioEditor({ options }: { options: OptionMap }) {
  const { t } = useTranslation();
  const { maps, saveMaps, saving } = usePricingMaps(options);
  const rows = useMemo(() => (maps ? buildPricingRows(maps) : []), [maps]);
  const names = useMemo(() => new Set(rows.map((row) => row.name)), [rows]);
  const { search, setSearch, filtered, pagination } = useModelTableState(rows, nameOf);
  const [editing, setEditing] = useState<{ purpose: RowEditPurpose; row?: ModelPricingRow } | null>(null);

  if (!maps) return <Alert type="error" showIcon title={t('setting.ratio.maps_invalid')} />;

  const submit = async (row: ModelPricingRow) => {
    if (await saveMaps(applyPricingRow(maps, row))) setEditing(null);
  };

  const columns: ColumnsType<ModelPricingRow> = [
    {
      title: t('setting.ratio.model_name'),
      dataIndex: 'name',
      render: (name: string) => <Typography.Text copyable={{ text: name }}>{name}</Typography.Text>,
    },
    {
      title: t('setting.ratio.billing_mode'),
      dataIndex: 'mode',
      width: 110,
      render: (mode: ModelPricingRow['mode']) =>
        mode === 'per-request' ? (
          <Tag color="purple">{t('setting.ratio.per_request')}</Tag>
        ) : (
          <Tag color="blue">{t('setting.ratio.per_token')}</Tag>
        ),
    },
    {
      title: t('setting.ratio.ratio_column'),
      key: 'ratio',
      render: (_, row) =>
        row.mode === 'per-request' ? (
          <Typography.Text type="secondary">—</Typography.Text>
        ) : (
          <span>
            {row.ratio ?? '—'} / {row.completionRatio ?? '—'}
          </span>
        ),
    },
    {
      title: t('setting.ratio.price_column'),
      key: 'price',
      render: (_, row) =>
        row.mode === 'per-request' ? (
          t('setting.ratio.per_request_price', { price: money(row.price) })
        ) : (
          <span className="nowrap">
            {money(row.tokenPrice)} / {money(row.completionTokenPrice)}
          </span>
        ),
    },
    {
      title: t('ui.actions'),
      key: 'actions',
      width: 100,
      render: (_, row) => (
        <Space size={4}>
          <Button
            size="small"
            icon={<EditOutlined />}
            aria-label={t('setting.ratio.edit_model', { name: row.name })}
            onClick={() => setEditing({ purpose: 'edit', row })}
          />
          <Popconfirm
            title={t('setting.ratio.delete_title', { name: row.name })}
            okText={t('ui.delete')}
            okButtonProps={{ danger: true }}
            cancelText={t('ui.cancel')}
            onConfirm={() => void saveMaps(removePricingRow(maps, row.name))}
          >
            <Button
              size="small"
              danger
              icon={<DeleteOutlined />}
              aria-label={t('setting.ratio.delete_model', { name: row.name })}
            />
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <div data-testid="ratio-visual">
      <Typography.Paragraph type="secondary">{t('setting.ratio.visual_help')}</Typography.Paragraph>
      <div className="setting-toolbar">
        <Input.Search
          className="setting-search"
          allowClear
          placeholder={t('setting.ratio.search')}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          aria-label={t('setting.ratio.search')}
        />
        <Button icon={<PlusOutlined />} onClick={() => setEditing({ purpose: 'add' })}>
          {t('setting.ratio.add_model')}
        </Button>
      </div>
      <Table<ModelPricingRow>
        rowKey="name"
        size="middle"
        columns={columns}
        dataSource={filtered}
        pagination={pagination}
        scroll={{ x: 640 }}
      />
      <PricingRowModal
        open={editing !== null}
        purpose={editing?.purpose ?? 'add'}
        initial={editing?.row}
        existingNames={names}
        saving={saving}
        onSubmit={(row) => void submit(row)}
        onClose={() => setEditing(null)}
      />
    </div>
  );
}
