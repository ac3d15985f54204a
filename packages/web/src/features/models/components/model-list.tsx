import { type CatalogueModel, type CatalogueVendor, endpointList } from '@gateway/shared';
import { Card, Flex, Typography } from 'antd';
import type { ColumnsType, TablePaginationConfig } from 'antd/es/table';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CardList } from '../../../components/list/card-list';
import { ListTable } from '../../../components/list/list-table';
import {
  contextText,
  type ModelActionHandlers,
  ModelActions,
  ModelChannels,
  ModelEndpoints,
  ModelName,
  ModelPrice,
  ModelTags,
  ShownSwitch,
} from './model-cells';

export interface ModelListProps extends ModelActionHandlers {
  models: CatalogueModel[];
  vendors: ReadonlyMap<number, CatalogueVendor>;
  loading: boolean;
  pagination: TablePaginationConfig;
  empty: ReactNode;
}

export function ModelTable({ models, vendors, loading, pagination, empty, ...handlers }: ModelListProps) {
  const { t } = useTranslation();
  const columns: ColumnsType<CatalogueModel> = [
    {
      key: 'name',
      title: t('models.col_name'),
      render: (_, model) => <ModelName model={model} vendor={vendors.get(model.vendor_id)} />,
    },
    {
      key: 'description',
      title: t('models.col_description'),
      dataIndex: 'description',
      width: 220,
      render: (text: string) => (
        <Typography.Paragraph type="secondary" ellipsis={{ rows: 2, tooltip: text }} className="models-description">
          {text || '—'}
        </Typography.Paragraph>
      ),
    },
    { key: 'tags', title: t('models.col_tags'), render: (_, model) => <ModelTags tags={model.tags} /> },
    {
      key: 'endpoints',
      title: t('models.col_endpoints'),
      render: (_, model) => <ModelEndpoints endpoints={model.endpoints} />,
    },
    { key: 'context', title: t('models.col_context'), render: (_, model) => contextText(model.context_length) },
    { key: 'price', title: t('models.col_price'), render: (_, model) => <ModelPrice model={model} /> },
    { key: 'channels', title: t('models.col_channels'), render: (_, model) => <ModelChannels model={model} /> },
    {
      key: 'shown',
      title: t('models.col_shown'),
      render: (_, model) => <ShownSwitch model={model} {...handlers} />,
    },
    {
      key: 'actions',
      title: t('ui.actions'),
      fixed: 'right',
      render: (_, model) => <ModelActions model={model} {...handlers} />,
    },
  ];
  return (
    <ListTable<CatalogueModel>
      testId="models-list"
      columns={columns}
      dataSource={models}
      loading={loading}
      pagination={pagination}
      empty={empty}
    />
  );
}

/** The same list on a phone: one card per model. */
export function ModelCards({ models, vendors, loading, pagination, empty, ...handlers }: ModelListProps) {
  const { t } = useTranslation();
  return (
    <CardList items={models} loading={loading} pagination={pagination} empty={empty} testId="models-list">
      {(model) => (
        <Card size="small" className="models-card" key={model.id}>
          <Flex vertical gap={8}>
            <Flex justify="space-between" align="flex-start" gap={8}>
              <ModelName model={model} vendor={vendors.get(model.vendor_id)} />
              <ShownSwitch model={model} {...handlers} />
            </Flex>
            {model.description && (
              <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} className="models-description">
                {model.description}
              </Typography.Paragraph>
            )}
            <ModelPrice model={model} />
            <Flex gap={8} wrap align="center">
              <ModelChannels model={model} />
              <Typography.Text type="secondary">
                {t('models.col_context')}: {contextText(model.context_length)}
              </Typography.Text>
            </Flex>
            {endpointList(model.endpoints).length > 0 && <ModelEndpoints endpoints={model.endpoints} />}
            <ModelActions model={model} {...handlers} />
          </Flex>
        </Card>
      )}
    </CardList>
  );
}
