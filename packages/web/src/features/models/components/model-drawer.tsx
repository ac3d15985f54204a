import {
  CATALOGUE_ENDPOINTS,
  type CatalogueModel,
  type CatalogueVendor,
  endpointList,
  isRoot,
  NameRule,
} from '@gateway/shared';
import { Button, Checkbox, Drawer, Flex, Form, Input, InputNumber, Radio, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { VendorIcon } from '../../../components/vendor-icon/vendor-icon';
import { notify } from '../../../lib/notify';
import { useSessionUser } from '../../../lib/session';
import { useIsMobile } from '../../../lib/use-media-query';
import { type ModelDraft, useSaveModel } from '../api/catalogue-mutations';
import { IconSelect } from './icon-select';

interface ModelFormValues {
  model_name: string;
  vendor_id: number;
  icon: string;
  description: string;
  tags: string[];
  endpoints: string[];
  context_length: number | null;
  name_rule: number;
  shown: boolean;
  price_mode: 'ratio' | 'call';
  model_ratio: number | null;
  completion_ratio: number | null;
  cache_ratio: number | null;
  model_price: number | null;
}

function initialValues(model: CatalogueModel | undefined): ModelFormValues {
  return {
    model_name: model?.model_name ?? '',
    vendor_id: model?.vendor_id ?? 0,
    icon: model?.icon ?? '',
    description: model?.description ?? '',
    tags: (model?.tags ?? '').split(',').filter(Boolean),
    endpoints: endpointList(model?.endpoints ?? ''),
    context_length: model?.context_length || null,
    name_rule: model?.name_rule ?? NameRule.Exact,
    shown: (model?.status ?? 1) === 1,
    price_mode: model?.price.model_price != null ? 'call' : 'ratio',
    model_ratio: model?.price.model_ratio ?? null,
    completion_ratio: model?.price.completion_ratio ?? null,
    cache_ratio: model?.price.cache_ratio ?? null,
    model_price: model?.price.model_price ?? null,
  };
}

/** The form's values as the API takes them; an emptied price field removes the model's entry from that option. */
function draftOf(values: ModelFormValues, id: number | undefined, withPrice: boolean): ModelDraft {
  const price =
    values.price_mode === 'call'
      ? { model_price: values.model_price ?? null }
      : {
          model_price: null,
          model_ratio: values.model_ratio ?? null,
          completion_ratio: values.completion_ratio ?? null,
          cache_ratio: values.cache_ratio ?? null,
        };
  return {
    id,
    model_name: values.model_name.trim(),
    vendor_id: values.vendor_id,
    icon: values.icon ?? '',
    description: values.description ?? '',
    tags: values.tags.join(','),
    endpoints: values.endpoints.length ? JSON.stringify(values.endpoints) : '',
    context_length: values.context_length ?? 0,
    name_rule: values.name_rule,
    status: values.shown ? 1 : 0,
    // Only root may change prices (they are the ratio options); an admin's save leaves them as they are.
    price: withPrice ? price : undefined,
  };
}

interface ModelDrawerProps {
  open: boolean;
  model?: CatalogueModel;
  vendors: CatalogueVendor[];
  onClose: () => void;
}

export function ModelDrawer({ open, model, vendors, onClose }: ModelDrawerProps) {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const save = useSaveModel();
  const [form] = Form.useForm<ModelFormValues>();
  const priceMode = Form.useWatch('price_mode', form);
  const canPrice = isRoot(useSessionUser()?.role);

  const onFinish = (values: ModelFormValues) =>
    save.mutate(draftOf(values, model?.id, canPrice), {
      onSuccess: () => {
        notify.success(t('models.saved'));
        onClose();
      },
    });

  const number = (name: keyof ModelFormValues, label: string, testId: string) => (
    <Form.Item name={name} label={label}>
      <InputNumber min={0} step={0.1} style={{ width: '100%' }} data-testid={testId} disabled={!canPrice} />
    </Form.Item>
  );

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={model ? t('models.edit_title', { name: model.model_name }) : t('models.create_title')}
      size={isMobile ? '100%' : 560}
      destroyOnHidden
      footer={
        <Flex justify="flex-end" gap={8}>
          <Button onClick={onClose}>{t('ui.cancel')}</Button>
          <Button type="primary" loading={save.isPending} onClick={() => form.submit()} data-testid="model-save">
            {t('ui.save')}
          </Button>
        </Flex>
      }
    >
      <Form<ModelFormValues>
        key={model?.id ?? 'new'}
        form={form}
        layout="vertical"
        initialValues={initialValues(model)}
        onFinish={onFinish}
      >
        <Form.Item
          name="model_name"
          label={t('models.field_name')}
          rules={[{ required: true, whitespace: true, message: t('models.field_name_required') }]}
        >
          <Input maxLength={128} data-testid="model-name" />
        </Form.Item>
        <Form.Item name="name_rule" label={t('models.field_rule')} extra={t('models.field_rule_hint')}>
          <Select
            options={[NameRule.Exact, NameRule.Prefix, NameRule.Contains, NameRule.Suffix].map((rule) => ({
              value: rule,
              label: t(`models.rule_${rule}`),
            }))}
          />
        </Form.Item>
        <Form.Item name="vendor_id" label={t('models.field_vendor')}>
          <Select
            data-testid="model-vendor"
            options={[
              { value: 0, label: t('models.no_vendor') },
              ...vendors.map((vendor) => ({
                value: vendor.id,
                label: (
                  <Flex gap={8} align="center">
                    <VendorIcon icon={vendor.icon} label={vendor.name} size={18} />
                    <span>{vendor.name}</span>
                  </Flex>
                ),
              })),
            ]}
          />
        </Form.Item>
        <Form.Item name="icon" label={t('models.field_icon')} extra={t('models.field_icon_hint')}>
          <IconSelect />
        </Form.Item>
        <Form.Item name="description" label={t('models.field_description')}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} data-testid="model-description" />
        </Form.Item>
        <Form.Item name="tags" label={t('models.field_tags')}>
          <Select mode="tags" tokenSeparators={[',']} open={false} suffixIcon={null} />
        </Form.Item>
        <Form.Item name="endpoints" label={t('models.field_endpoints')}>
          <Checkbox.Group
            options={CATALOGUE_ENDPOINTS.map((endpoint) => ({
              value: endpoint,
              label: t(`models.endpoint.${endpoint}`),
            }))}
          />
        </Form.Item>
        <Form.Item name="context_length" label={t('models.field_context')}>
          <InputNumber min={0} precision={0} style={{ width: '100%' }} placeholder="128000" />
        </Form.Item>
        <Form.Item name="shown" label={t('models.shown_on_pricing')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item
          name="price_mode"
          label={t('models.field_price_mode')}
          extra={canPrice ? t('models.field_price_hint') : t('models.field_price_root_only')}
        >
          <Radio.Group
            disabled={!canPrice}
            optionType="button"
            options={[
              { value: 'ratio', label: t('models.price_mode_ratio') },
              { value: 'call', label: t('models.price_mode_call') },
            ]}
          />
        </Form.Item>
        {priceMode === 'call' ? (
          number('model_price', t('models.field_model_price'), 'model-price')
        ) : (
          <Flex gap={12} wrap className="models-price-fields">
            {number('model_ratio', t('models.field_model_ratio'), 'model-ratio')}
            {number('completion_ratio', t('models.field_completion_ratio'), 'model-completion-ratio')}
            {number('cache_ratio', t('models.field_cache_ratio'), 'model-cache-ratio')}
          </Flex>
        )}
      </Form>
    </Drawer>
  );
}
