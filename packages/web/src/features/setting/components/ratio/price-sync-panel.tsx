import { CloudDownloadOutlined, UploadOutlined } from '@ant-design/icons';
import type { PriceChange, PriceChangeKind, PriceSyncSource } from '@gateway/shared';
import {
  Alert,
  Button,
  Empty,
  Input,
  Popconfirm,
  Radio,
  Segmented,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
  Upload,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../../lib/notify';
import { usePriceSyncApply, usePriceSyncPreview } from '../../api/use-price-sync';
import { useSaveOptions } from '../../api/use-save-options';
import type { OptionMap } from '../../option-form';

type SourceType = PriceSyncSource['type'];
type Filter = 'all' | PriceChangeKind;

const KIND_COLOR: Record<PriceChangeKind, string> = { changed: 'gold', added: 'green', removed: 'red' };
const rowKey = (change: PriceChange) => `${change.model}|${change.field}`;
const shown = (value: number | null) => (value === null ? '—' : String(value));

/**
 * "Sync prices": read OpenRouter, another gateway of the family or an uploaded ratio config on the server, see
 * every difference per model and field, tick the rows to take, and apply them to the ratio options in one go.
 */
export function PriceSyncPanel({ options }: { options: OptionMap }) {
  const { t } = useTranslation();
  const preview = usePriceSyncPreview();
  const apply = usePriceSyncApply();
  const saveOptions = useSaveOptions();
  const [type, setType] = useState<SourceType>('openrouter');
  const [gatewayUrl, setGatewayUrl] = useState('');
  const [upload, setUpload] = useState<{ name: string; data: unknown } | null>(null);
  const [uploadError, setUploadError] = useState('');
  const [filter, setFilter] = useState<Filter>('all');
  const [selected, setSelected] = useState<string[]>([]);

  const changes = preview.data?.changes ?? [];
  const visible = useMemo(
    () => (filter === 'all' ? changes : changes.filter((change) => change.kind === filter)),
    [changes, filter],
  );
  const count = (kind: PriceChangeKind) => changes.filter((change) => change.kind === kind).length;

  const readFile = async (file: File) => {
    try {
      setUpload({ name: file.name, data: JSON.parse(await file.text()) });
      setUploadError('');
    } catch {
      setUpload(null);
      setUploadError(t('price_sync.upload_not_json'));
    }
    return false;
  };

  const source = (): PriceSyncSource | null => {
    if (type === 'openrouter') return { type };
    if (type === 'gateway') return { type, base_url: gatewayUrl };
    return upload ? { type, data: upload.data } : null;
  };

  const runPreview = () => {
    const chosen = source();
    if (!chosen) return setUploadError(t('price_sync.upload_missing'));
    setSelected([]);
    apply.reset();
    preview.mutate(chosen);
  };

  const runApply = () => {
    const picked = changes.filter((change) => selected.includes(rowKey(change)));
    apply.mutate(picked, {
      onSuccess: (message) => {
        notify.success(message);
        setSelected([]);
        const chosen = source();
        if (chosen) preview.mutate(chosen);
      },
    });
  };

  const exposed = options.ExposeRatioEnabled === 'true';
  const error = preview.error ?? apply.error;

  return (
    <Space
      orientation="vertical"
      size="middle"
      className="price-sync"
      data-testid="price-sync"
      style={{ width: '100%' }}
    >
      <Typography.Paragraph type="secondary">{t('price_sync.help')}</Typography.Paragraph>
      <Radio.Group
        value={type}
        onChange={(event) => setType(event.target.value as SourceType)}
        optionType="button"
        data-testid="price-sync-source"
        options={[
          { value: 'openrouter', label: t('price_sync.source_openrouter') },
          { value: 'gateway', label: t('price_sync.source_gateway') },
          { value: 'upload', label: t('price_sync.source_upload') },
        ]}
      />
      {type === 'gateway' && (
        <Input
          value={gatewayUrl}
          onChange={(event) => setGatewayUrl(event.target.value)}
          placeholder="https://gateway.example.com"
          aria-label={t('price_sync.gateway_url')}
          data-testid="price-sync-gateway-url"
        />
      )}
      {type === 'upload' && (
        <Space wrap>
          <Upload accept=".json,application/json" showUploadList={false} beforeUpload={readFile} maxCount={1}>
            <Button icon={<UploadOutlined />}>{t('price_sync.choose_file')}</Button>
          </Upload>
          {upload && <Typography.Text>{upload.name}</Typography.Text>}
        </Space>
      )}
      {uploadError && <Alert type="error" showIcon title={uploadError} />}
      <Space wrap>
        <Button
          type="primary"
          icon={<CloudDownloadOutlined />}
          loading={preview.isPending}
          onClick={runPreview}
          data-testid="price-sync-preview"
        >
          {t('price_sync.preview')}
        </Button>
        <Space>
          <Switch
            checked={exposed}
            loading={saveOptions.isPending}
            onChange={(checked) => saveOptions.mutate([['ExposeRatioEnabled', String(checked)]])}
            aria-label={t('price_sync.expose')}
          />
          <Typography.Text>{t('price_sync.expose')}</Typography.Text>
        </Space>
      </Space>
      {error && <Alert type="error" showIcon title={error instanceof Error ? error.message : String(error)} />}
      {preview.data && (
        <>
          <Typography.Text data-testid="price-sync-summary">
            {t('price_sync.summary', {
              source: preview.data.source,
              models: preview.data.models,
              changed: count('changed'),
              added: count('added'),
              removed: count('removed'),
            })}
          </Typography.Text>
          <Space wrap>
            <Segmented<Filter>
              value={filter}
              onChange={setFilter}
              options={(['all', 'changed', 'added', 'removed'] as const).map((value) => ({
                value,
                label: t(`price_sync.filter_${value}`),
              }))}
            />
            <Popconfirm
              title={t('price_sync.apply_title', { count: selected.length })}
              description={t('price_sync.apply_text')}
              onConfirm={runApply}
              okText={t('price_sync.apply')}
              cancelText={t('ui.cancel')}
              disabled={selected.length === 0}
            >
              <Button
                type="primary"
                danger
                disabled={selected.length === 0}
                loading={apply.isPending}
                data-testid="price-sync-apply"
              >
                {t('price_sync.apply_selected', { count: selected.length })}
              </Button>
            </Popconfirm>
          </Space>
          <Table<PriceChange>
            size="small"
            rowKey={rowKey}
            dataSource={visible}
            scroll={{ x: 560 }}
            pagination={{ defaultPageSize: 20, showSizeChanger: true }}
            locale={{ emptyText: <Empty description={t('price_sync.no_changes')} /> }}
            rowSelection={{
              selectedRowKeys: selected,
              onChange: (keys) => setSelected(keys as string[]),
              preserveSelectedRowKeys: true,
            }}
            data-testid="price-sync-table"
            columns={[
              {
                title: t('price_sync.col_model'),
                dataIndex: 'model',
                render: (model: string) => <Typography.Text code>{model}</Typography.Text>,
              },
              {
                title: t('price_sync.col_field'),
                dataIndex: 'field',
                render: (field: string) => t(`price_sync.field_${field}`),
              },
              {
                title: t('price_sync.col_kind'),
                dataIndex: 'kind',
                render: (kind: PriceChangeKind) => <Tag color={KIND_COLOR[kind]}>{t(`price_sync.filter_${kind}`)}</Tag>,
              },
              {
                title: t('price_sync.col_change'),
                key: 'change',
                render: (_: unknown, change: PriceChange) => `${shown(change.before)} → ${shown(change.after)}`,
              },
            ]}
          />
        </>
      )}
    </Space>
  );
}
