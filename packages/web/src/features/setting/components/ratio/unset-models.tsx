import { EditOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { applyPricingRow, type ModelPricingRow, type PricingMaps, unpricedModels } from '@gateway/shared';
import { Alert, Button, Empty, Input, Space, Table, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../../lib/notify';
import { useEnabledModels } from '../../api/use-enabled-models';
import type { OptionMap } from '../../option-form';
import { PricingRowModal, type RowEditPurpose } from './pricing-row-modal';
import { useModelTableState } from './pricing-table-state';
import { usePricingMaps } from './use-pricing-maps';

const nameOf = (name: string) => name;

/**
 * Models that enabled channels serve but nothing prices (calls to them are refused): price one, add one by
 * hand, or select several and set them all at once.
 */
export function UnsetModels({ options }: { options: OptionMap }) {
  const { t } = useTranslation();
  const enabled = useEnabledModels();
  const { maps, saveMaps, saving } = usePricingMaps(options);
  const [extra, setExtra] = useState<string[]>([]);
  const [selected, setSelected] = useState<string[]>([]);
  const [editing, setEditing] = useState<{ purpose: RowEditPurpose; row?: ModelPricingRow } | null>(null);

  const unset = useMemo(
    () => (maps ? unpricedModels([...(enabled.data ?? []), ...extra], maps) : []),
    [maps, enabled.data, extra],
  );
  const known = useMemo(
    () => new Set([...unset, ...(maps ? [...Object.keys(maps.ModelPrice), ...Object.keys(maps.ModelRatio)] : [])]),
    [unset, maps],
  );
  const { search, setSearch, filtered, pagination } = useModelTableState(unset, nameOf);

  if (!maps) return <Alert type="error" showIcon title={t('setting.ratio.maps_invalid')} />;

  const openBatch = () => {
    if (selected.length === 0) {
      notify.warning(t('setting.ratio.select_first'));
      return;
    }
    setEditing({ purpose: 'batch' });
  };

  const submit = async (row: ModelPricingRow) => {
    if (editing?.purpose === 'add') {
      // A hand-added model joins the list to be priced here; it is saved once it has a price.
      setExtra((names) => [...names, row.name]);
    }
    const targets = editing?.purpose === 'batch' ? selected : [row.name];
    const next = targets.reduce<PricingMaps>((acc, name) => applyPricingRow(acc, { ...row, name }), maps);
    if (await saveMaps(next)) {
      setSelected((names) => names.filter((name) => !targets.includes(name)));
      setEditing(null);
    }
  };

  return (
    <div data-testid="ratio-unset">
      <Typography.Paragraph type="secondary">{t('setting.ratio.unset_help')}</Typography.Paragraph>
      <div className="setting-toolbar">
        <Input.Search
          className="setting-search"
          allowClear
          placeholder={t('setting.ratio.search')}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          aria-label={t('setting.ratio.search')}
        />
        <Button type="primary" onClick={openBatch} disabled={selected.length === 0}>
          {t('setting.ratio.batch_set', { count: selected.length })}
        </Button>
        <Button icon={<PlusOutlined />} onClick={() => setEditing({ purpose: 'add' })}>
          {t('setting.ratio.add_model')}
        </Button>
        <Button icon={<ReloadOutlined />} onClick={() => void enabled.refetch()} loading={enabled.isFetching}>
          {t('setting.ratio.refresh')}
        </Button>
      </div>
      {enabled.isError && <Alert type="error" showIcon title={t('setting.ratio.enabled_failed')} />}
      <Table<{ name: string }>
        rowKey="name"
        size="middle"
        loading={enabled.isPending}
        dataSource={filtered.map((name) => ({ name }))}
        pagination={pagination}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) }}
        locale={{ emptyText: <Empty description={t('setting.ratio.unset_empty')} /> }}
        columns={[
          { title: t('setting.ratio.model_name'), dataIndex: 'name' },
          {
            title: t('ui.actions'),
            key: 'actions',
            width: 120,
            render: (_, { name }) => (
              <Space>
                <Button
                  size="small"
                  icon={<EditOutlined />}
                  onClick={() => setEditing({ purpose: 'edit', row: { name, mode: 'per-token' } })}
                  aria-label={t('setting.ratio.edit_model', { name })}
                >
                  {t('setting.ratio.set_price')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <PricingRowModal
        open={editing !== null}
        purpose={editing?.purpose ?? 'add'}
        initial={editing?.row}
        existingNames={known}
        batchCount={selected.length}
        saving={saving}
        onSubmit={(row) => void submit(row)}
        onClose={() => setEditing(null)}
      />
    </div>
  );
}
