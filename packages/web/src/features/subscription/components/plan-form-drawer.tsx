import { useQuery } from '@tanstack/react-query';
import { Button, Divider, Drawer, Flex, Form, Input, InputNumber, Select, Space, Switch, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PresetField, wholeNumberRule } from '../../../components/form/preset-field';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import { usePublicStatus } from '../../../hooks/use-status';
import { api } from '../../../lib/api';
import { notify } from '../../../lib/notify';
import { quotaDisplayFrom } from '../../../lib/quota';
import { PLAN_DURATION_UNITS, PLAN_RESET_PERIODS, type PlanRecord } from '../../../lib/subscriptions';
import { useIsMobile } from '../../../lib/use-media-query';
import { useSavePlan } from '../api/use-save-plan';
import { NEW_PLAN, type PlanInput } from '../types';

interface PlanFormDrawerProps {
  open: boolean;
  /** The plan being edited; undefined creates one. Kept while the drawer closes so its content does not flip. */
  plan?: PlanRecord;
  onClose: () => void;
}

export function PlanFormDrawer({ open, plan, onClose }: PlanFormDrawerProps) {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={plan ? t('subscription.edit_title') : t('subscription.create_title')}
      size={isMobile ? '100%' : 560}
      destroyOnHidden
      styles={{ body: { paddingBottom: 24 } }}
    >
      <PlanForm key={plan?.id ?? 'new'} plan={plan} onDone={onClose} />
    </Drawer>
  );
}

/** Quota presets in dollars of credit, turned into quota with the operator's quota-per-unit. */
const QUOTA_PRESETS_USD = [5, 10, 50, 100] as const;
const CURRENCIES = ['USD', 'CNY', 'EUR'] as const;

/** The form's values: no group is `undefined` there, so the select shows its placeholder ('' on the wire). */
type PlanFormValues = Omit<PlanInput, 'upgrade_group'> & { upgrade_group?: string };

function PlanForm({ plan, onDone }: { plan?: PlanRecord; onDone: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<PlanFormValues>();
  const formatQuota = useFormatQuota();
  const { quotaPerUnit } = quotaDisplayFrom(usePublicStatus());
  const save = useSavePlan();
  // The groups a plan can move its subscribers to: the operator's priced groups.
  const groups = useQuery({
    queryKey: ['groups'],
    queryFn: () => api.get<string[]>('/api/group/'),
    staleTime: 5 * 60_000,
  });
  const [initialValues] = useState<PlanFormValues>(() => {
    if (!plan) return { ...NEW_PLAN, upgrade_group: undefined };
    const { id: _id, created_at: _created, updated_at: _updated, subscriber_count: _count, ...values } = plan;
    return { ...values, upgrade_group: values.upgrade_group || undefined };
  });
  const durationUnit = Form.useWatch('duration_unit', form);
  const resetPeriod = Form.useWatch('quota_reset_period', form);
  const total = Form.useWatch('total_amount', form);

  const groupOptions = useMemo(() => {
    const names = new Set(groups.data ?? []);
    if (plan?.upgrade_group) names.add(plan.upgrade_group);
    return [...names].map((name) => ({ value: name, label: name }));
  }, [groups.data, plan?.upgrade_group]);

  const onFinish = (values: PlanFormValues) => {
    const input: PlanInput = {
      ...initialValues,
      ...values,
      title: values.title.trim(),
      subtitle: (values.subtitle ?? '').trim(),
      currency: (values.currency || 'USD').trim().toUpperCase(),
      upgrade_group: values.upgrade_group ?? '',
      stripe_price_id: (values.stripe_price_id ?? '').trim(),
      creem_product_id: (values.creem_product_id ?? '').trim(),
      custom_seconds: values.duration_unit === 'custom' ? values.custom_seconds : 0,
      quota_reset_custom_seconds: values.quota_reset_period === 'custom' ? values.quota_reset_custom_seconds : 0,
    };
    save.mutate(
      { id: plan?.id, plan: input },
      {
        onSuccess: () => {
          notify.success(plan ? t('subscription.updated') : t('subscription.created'));
          onDone();
        },
      },
    );
  };

  const number = (message: string, min: number) => [wholeNumberRule(message, min)];

  return (
    <Form<PlanFormValues>
      form={form}
      layout="vertical"
      initialValues={initialValues}
      onFinish={onFinish}
      data-testid="plan-form"
      autoComplete="off"
    >
      <Form.Item
        name="title"
        label={t('subscription.field_title')}
        rules={[
          { required: true, whitespace: true, message: t('subscription.title_required') },
          { max: 128, message: t('subscription.title_too_long') },
        ]}
      >
        <Input maxLength={128} showCount placeholder={t('subscription.field_title_placeholder')} />
      </Form.Item>
      <Form.Item name="subtitle" label={t('subscription.field_subtitle')} rules={[{ max: 255 }]}>
        <Input maxLength={255} placeholder={t('subscription.field_subtitle_placeholder')} />
      </Form.Item>

      <Form.Item label={t('subscription.field_price')} required extra={t('subscription.field_price_help')}>
        <Space.Compact block>
          <Form.Item
            name="price_amount"
            noStyle
            rules={[
              {
                validator: (_, value: number | null) =>
                  typeof value === 'number' && Number.isFinite(value) && value >= 0
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('subscription.price_invalid'))),
              },
            ]}
          >
            <InputNumber min={0} precision={2} style={{ width: '100%' }} aria-label={t('subscription.field_price')} />
          </Form.Item>
          <Form.Item name="currency" noStyle>
            <Select
              style={{ width: 110 }}
              options={CURRENCIES.map((code) => ({ value: code, label: code }))}
              aria-label={t('subscription.field_currency')}
            />
          </Form.Item>
        </Space.Compact>
      </Form.Item>

      <PresetField
        name="total_amount"
        label={t('subscription.field_quota')}
        required
        help={t('subscription.field_quota_equals', { value: formatQuota(Number.isFinite(total) ? total : 0) })}
        presets={QUOTA_PRESETS_USD.map((usd) => ({
          key: usd,
          label: `$${usd}`,
          apply: () => {
            form.setFieldValue('total_amount', Math.round(usd * quotaPerUnit));
            void form.validateFields(['total_amount']);
          },
        }))}
        rules={number(t('subscription.quota_invalid'), 1)}
      >
        <InputNumber min={1} precision={0} style={{ width: '100%' }} aria-label={t('subscription.field_quota')} />
      </PresetField>

      <Flex gap={12} wrap className="plan-form-row">
        <Form.Item name="quota_reset_period" label={t('subscription.field_period')} className="plan-form-cell">
          <Select
            options={PLAN_RESET_PERIODS.map((period) => ({ value: period, label: t(`subscription.period_${period}`) }))}
            aria-label={t('subscription.field_period')}
          />
        </Form.Item>
        {resetPeriod === 'custom' && (
          <Form.Item
            name="quota_reset_custom_seconds"
            label={t('subscription.field_period_seconds')}
            className="plan-form-cell"
            rules={number(t('subscription.seconds_invalid'), 60)}
          >
            <InputNumber min={60} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        )}
      </Flex>

      <Flex gap={12} wrap className="plan-form-row">
        <Form.Item name="duration_unit" label={t('subscription.field_duration_unit')} className="plan-form-cell">
          <Select
            options={PLAN_DURATION_UNITS.map((unit) => ({ value: unit, label: t(`subscription.duration_${unit}`) }))}
            aria-label={t('subscription.field_duration_unit')}
          />
        </Form.Item>
        {durationUnit === 'custom' ? (
          <Form.Item
            name="custom_seconds"
            label={t('subscription.field_duration_seconds')}
            className="plan-form-cell"
            rules={number(t('subscription.seconds_invalid'), 60)}
          >
            <InputNumber min={60} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        ) : (
          <Form.Item
            name="duration_value"
            label={t('subscription.field_duration_value')}
            className="plan-form-cell"
            rules={number(t('subscription.duration_invalid'), 1)}
          >
            <InputNumber min={1} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        )}
      </Flex>

      <Form.Item name="upgrade_group" label={t('subscription.field_group')} extra={t('subscription.field_group_help')}>
        <Select
          allowClear
          showSearch
          options={groupOptions}
          loading={groups.isPending}
          placeholder={t('subscription.group_none')}
          aria-label={t('subscription.field_group')}
        />
      </Form.Item>

      <Flex gap={12} wrap className="plan-form-row">
        <Form.Item
          name="max_purchase_per_user"
          label={t('subscription.field_limit')}
          extra={t('subscription.field_limit_help')}
          className="plan-form-cell"
          rules={number(t('subscription.limit_invalid'), 0)}
        >
          <InputNumber min={0} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item
          name="sort_order"
          label={t('subscription.field_sort')}
          extra={t('subscription.field_sort_help')}
          className="plan-form-cell"
          rules={[wholeNumberRule(t('subscription.sort_invalid'), -1_000_000, 1_000_000)]}
        >
          <InputNumber precision={0} style={{ width: '100%' }} />
        </Form.Item>
      </Flex>

      <Flex gap={24} wrap>
        <Form.Item name="enabled" label={t('subscription.field_enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="allow_balance_pay" label={t('subscription.field_balance_pay')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Flex>

      <Divider titlePlacement="start" plain>
        <Typography.Text type="secondary">{t('subscription.providers')}</Typography.Text>
      </Divider>
      <Form.Item
        name="stripe_price_id"
        label={t('subscription.field_stripe')}
        extra={t('subscription.field_stripe_help')}
      >
        <Input className="mono-text" placeholder="price_…" maxLength={128} />
      </Form.Item>
      <Form.Item
        name="creem_product_id"
        label={t('subscription.field_creem')}
        extra={t('subscription.field_creem_help')}
      >
        <Input className="mono-text" placeholder="prod_…" maxLength={128} />
      </Form.Item>

      <Flex gap={8} justify="flex-end">
        <Button onClick={onDone}>{t('ui.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="plan-save">
          {plan ? t('ui.save') : t('ui.create')}
        </Button>
      </Flex>
    </Form>
  );
}
