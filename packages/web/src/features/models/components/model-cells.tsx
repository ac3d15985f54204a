import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { type CatalogueModel, type CatalogueVendor, endpointList, NameRule } from '@gateway/shared';
import { Button, Flex, Popconfirm, Space, Switch, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { VendorIcon } from '../../../components/vendor-icon/vendor-icon';

export interface ModelActionHandlers {
  onEdit: (model: CatalogueModel) => void;
  onDelete: (model: CatalogueModel) => void;
  onToggleShown: (model: CatalogueModel) => void;
  togglingId?: number;
}

/** The model's name with its icon (its own, else its vendor's) and vendor. */
export function ModelName({ model, vendor }: { model: CatalogueModel; vendor?: CatalogueVendor }) {
  const { t } = useTranslation();
  const rule = model.name_rule !== NameRule.Exact;
  return (
    <Flex gap={8} align="center">
      <VendorIcon icon={model.icon || vendor?.icon || ''} label={vendor?.name ?? model.model_name} size={22} />
      <Flex vertical>
        <Typography.Text strong copyable={{ text: model.model_name }}>
          {model.model_name}
          {rule && <Tag className="models-rule-tag">{t(`models.rule_${model.name_rule}`)}</Tag>}
        </Typography.Text>
        <Typography.Text type="secondary" className="models-vendor-name">
          {vendor?.name ?? t('models.no_vendor')}
        </Typography.Text>
      </Flex>
    </Flex>
  );
}

export function ModelTags({ tags }: { tags: string }) {
  const list = tags
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
  return list.length ? (
    <Space size={[0, 4]} wrap>
      {list.map((tag) => (
        <Tag key={tag}>{tag}</Tag>
      ))}
    </Space>
  ) : (
    <Typography.Text type="secondary">—</Typography.Text>
  );
}

export function ModelEndpoints({ endpoints }: { endpoints: string }) {
  const { t } = useTranslation();
  const list = endpointList(endpoints);
  if (!list.length) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Space size={[0, 4]} wrap>
      {list.map((endpoint) => (
        <Tag key={endpoint} color="blue">
          {t(`models.endpoint.${endpoint}`, { defaultValue: endpoint })}
        </Tag>
      ))}
    </Space>
  );
}

/** 128000 → "128K", 1048576 → "1M"; 0 = not said. */
export function contextText(tokens: number): string {
  if (!tokens) return '—';
  if (tokens >= 1_000_000) return `${Number((tokens / 1_048_576).toFixed(1))}M`;
  if (tokens >= 1000) return `${Math.round(tokens / 1024)}K`;
  return String(tokens);
}

/** How the relay bills the model, from the ratio options (a fixed price wins). */
export function ModelPrice({ model }: { model: CatalogueModel }) {
  const { t } = useTranslation();
  const { model_price, model_ratio, completion_ratio, cache_ratio } = model.price;
  if (model_price !== null) return <Tag color="purple">{t('models.price_per_call', { price: model_price })}</Tag>;
  if (model_ratio === null) return <Tag color="warning">{t('models.unpriced')}</Tag>;
  return (
    <Flex vertical className="nowrap">
      <span>{t('models.price_ratio', { ratio: model_ratio })}</span>
      <Typography.Text type="secondary">
        {t('models.price_completion', { ratio: completion_ratio ?? 1 })}
        {cache_ratio !== null && ` · ${t('models.price_cache', { ratio: cache_ratio })}`}
      </Typography.Text>
    </Flex>
  );
}

export function ModelChannels({ model }: { model: CatalogueModel }) {
  const { t } = useTranslation();
  const count = model.bound_channels.length;
  if (!count) return <Tag>{t('models.no_channels')}</Tag>;
  return (
    <Tooltip title={model.bound_channels.map((channel) => channel.name).join(', ')}>
      <Tag color="green">{t('models.channel_count', { count })}</Tag>
    </Tooltip>
  );
}

export function ShownSwitch({ model, onToggleShown, togglingId }: { model: CatalogueModel } & ModelActionHandlers) {
  const { t } = useTranslation();
  return (
    <Switch
      size="small"
      checked={model.status === 1}
      loading={togglingId === model.id}
      onChange={() => onToggleShown(model)}
      aria-label={t('models.shown_on_pricing')}
    />
  );
}

export function ModelActions({ model, onEdit, onDelete }: { model: CatalogueModel } & ModelActionHandlers) {
  const { t } = useTranslation();
  return (
    <Space size={4}>
      <Button
        size="small"
        icon={<EditOutlined />}
        onClick={() => onEdit(model)}
        data-testid={`model-edit-${model.model_name}`}
      >
        {t('ui.edit')}
      </Button>
      <Popconfirm title={t('models.delete_confirm')} onConfirm={() => onDelete(model)}>
        <Button size="small" danger icon={<DeleteOutlined />} aria-label={t('ui.delete')} />
      </Popconfirm>
    </Space>
  );
}
