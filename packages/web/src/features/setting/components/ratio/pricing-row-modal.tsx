import { type ModelPricingRow, type PricingMode, ratiosFromTokenPrices, tokenPricesFromRatios } from '@gateway/shared';
import { Form, Input, InputNumber, Modal, Radio, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

type EntryMode = 'ratio' | 'price';

interface RowForm {
  name: string;
  mode: PricingMode;
  entry: EntryMode;
  price?: number | null;
  ratio?: number | null;
  completionRatio?: number | null;
  tokenPrice?: number | null;
  completionTokenPrice?: number | null;
}

export type RowEditPurpose = 'add' | 'edit' | 'batch';

interface PricingRowModalProps {
  open: boolean;
  purpose: RowEditPurpose;
  /** The row being edited (edit) or the name to price (unset models). */
  initial?: Partial<ModelPricingRow>;
  /** Names already priced or listed: an added model must not repeat one. */
  existingNames?: ReadonlySet<string>;
  /** How many models a batch applies to. */
  batchCount?: number;
  saving?: boolean;
  onSubmit: (row: Omit<ModelPricingRow, 'name'> & { name: string }) => void;
  onClose: () => void;
}

const isSet = (value: number | null | undefined): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/** The row as the form converts it: in price entry the ratios come from the prices (ratio = price / 2). */
function rowFrom(values: RowForm): ModelPricingRow {
  if (values.mode === 'per-request') return { name: values.name, mode: 'per-request', price: values.price ?? 0 };
  if (values.entry === 'price') {
    const { ratio, completionRatio } = ratiosFromTokenPrices(
      values.tokenPrice ?? 0,
      isSet(values.completionTokenPrice) ? values.completionTokenPrice : undefined,
    );
    return { name: values.name, mode: 'per-token', ratio, completionRatio };
  }
  return {
    name: values.name,
    mode: 'per-token',
    ratio: values.ratio ?? 0,
    completionRatio: isSet(values.completionRatio) ? values.completionRatio : undefined,
  };
}

/** Add, edit or batch-set a model's price: per-token (ratio or $ per 1M tokens) or per-request. */
export function PricingRowModal({
  open,
  purpose,
  initial,
  existingNames,
  batchCount = 0,
  saving,
  onSubmit,
  onClose,
}: PricingRowModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<RowForm>();
  const mode = Form.useWatch('mode', form) ?? 'per-token';
  const entry = Form.useWatch('entry', form) ?? 'ratio';
  const values = Form.useWatch([], form) as RowForm | undefined;

  useEffect(() => {
    if (!open) return;
    const prices: Partial<ReturnType<typeof tokenPricesFromRatios>> = isSet(initial?.ratio)
      ? tokenPricesFromRatios(initial.ratio, initial.completionRatio ?? 1)
      : {};
    form.resetFields();
    form.setFieldsValue({
      name: initial?.name ?? '',
      mode: initial?.mode ?? 'per-token',
      entry: 'ratio',
      price: initial?.price ?? null,
      ratio: initial?.ratio ?? null,
      completionRatio: initial?.completionRatio ?? null,
      tokenPrice: prices.tokenPrice ?? null,
      completionTokenPrice: prices.completionTokenPrice ?? null,
    });
  }, [open, initial, form]);

  // Batch: every value must be given ("a fill value or both ratios"); single rows may leave completion empty.
  const batch = purpose === 'batch';
  const numberRules = (required: boolean) => [
    {
      validator: (_: unknown, value: number | null | undefined) => {
        if (value === null || value === undefined) {
          return required ? Promise.reject(new Error(t('setting.ratio.enter_number'))) : Promise.resolve();
        }
        return isSet(value) && value >= 0
          ? Promise.resolve()
          : Promise.reject(new Error(t('setting.ratio.enter_number')));
      },
    },
  ];

  let preview = '';
  if (values && mode === 'per-token') {
    if (entry === 'ratio' && isSet(values.ratio)) {
      const prices = tokenPricesFromRatios(values.ratio, isSet(values.completionRatio) ? values.completionRatio : 1);
      preview = t('setting.ratio.preview_prices', { input: prices.tokenPrice, output: prices.completionTokenPrice });
    } else if (entry === 'price' && isSet(values.tokenPrice)) {
      const ratios = ratiosFromTokenPrices(
        values.tokenPrice,
        isSet(values.completionTokenPrice) ? values.completionTokenPrice : undefined,
      );
      preview = t('setting.ratio.preview_ratios', { ratio: ratios.ratio, completion: ratios.completionRatio });
    }
  }

  const title =
    purpose === 'add'
      ? t('setting.ratio.add_model')
      : purpose === 'batch'
        ? t('setting.ratio.batch_title', { count: batchCount })
        : t('setting.ratio.edit_model', { name: initial?.name ?? '' });

  return (
    <Modal
      open={open}
      title={title}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('ui.save')}
      cancelText={t('ui.cancel')}
      confirmLoading={saving}
      forceRender
      destroyOnHidden={false}
    >
      <Form<RowForm>
        form={form}
        layout="vertical"
        onFinish={(submitted) => onSubmit(rowFrom({ ...submitted, name: submitted.name?.trim() ?? '' }))}
        data-testid="pricing-row-form"
      >
        <Form.Item
          name="name"
          label={t('setting.ratio.model_name')}
          hidden={batch}
          rules={
            batch
              ? []
              : [
                  { required: true, whitespace: true, message: t('setting.ratio.name_required') },
                  {
                    validator: (_, value: string) =>
                      purpose === 'add' && existingNames?.has(value?.trim())
                        ? Promise.reject(new Error(t('setting.ratio.name_exists')))
                        : Promise.resolve(),
                  },
                ]
          }
        >
          <Input disabled={purpose === 'edit'} autoComplete="off" />
        </Form.Item>
        <Form.Item name="mode" label={t('setting.ratio.billing_mode')}>
          <Radio.Group
            optionType="button"
            options={[
              { value: 'per-token', label: t('setting.ratio.per_token') },
              { value: 'per-request', label: t('setting.ratio.per_request') },
            ]}
          />
        </Form.Item>
        {mode === 'per-request' ? (
          <Form.Item
            name="price"
            label={t('setting.ratio.request_price')}
            extra={t('setting.ratio.request_price_help')}
            rules={numberRules(true)}
          >
            <InputNumber min={0} step={0.01} prefix="$" style={{ width: '100%' }} />
          </Form.Item>
        ) : (
          <>
            <Form.Item name="entry" label={t('setting.ratio.entry_mode')}>
              <Radio.Group
                optionType="button"
                options={[
                  { value: 'ratio', label: t('setting.ratio.entry_ratio') },
                  { value: 'price', label: t('setting.ratio.entry_price') },
                ]}
              />
            </Form.Item>
            {entry === 'ratio' ? (
              <>
                <Form.Item name="ratio" label={t('setting.ratio.ratio')} rules={numberRules(true)}>
                  <InputNumber min={0} step={0.1} style={{ width: '100%' }} />
                </Form.Item>
                <Form.Item
                  name="completionRatio"
                  label={t('setting.ratio.completion')}
                  extra={batch ? undefined : t('setting.ratio.completion_optional')}
                  rules={numberRules(batch)}
                >
                  <InputNumber min={0} step={0.1} style={{ width: '100%' }} />
                </Form.Item>
              </>
            ) : (
              <>
                <Form.Item name="tokenPrice" label={t('setting.ratio.input_price')} rules={numberRules(true)}>
                  <InputNumber min={0} step={0.1} prefix="$" style={{ width: '100%' }} />
                </Form.Item>
                <Form.Item
                  name="completionTokenPrice"
                  label={t('setting.ratio.output_price')}
                  extra={batch ? undefined : t('setting.ratio.output_optional')}
                  rules={numberRules(batch)}
                >
                  <InputNumber min={0} step={0.1} prefix="$" style={{ width: '100%' }} />
                </Form.Item>
              </>
            )}
            {preview && (
              <Typography.Text type="secondary" data-testid="pricing-preview">
                {preview}
              </Typography.Text>
            )}
          </>
        )}
      </Form>
    </Modal>
  );
}
