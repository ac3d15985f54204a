import { REDEMPTION_BATCH_MAX, REDEMPTION_DEFAULT_QUOTA, REDEMPTION_NAME_MAX, RedemptionStatus } from '@gateway/shared';
import { Alert, Button, DatePicker, Drawer, Flex, Form, Input, InputNumber, Skeleton } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PresetField, wholeNumberRule } from '../../../components/form/preset-field';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import { usePublicStatus } from '../../../hooks/use-status';
import { notify } from '../../../lib/notify';
import { quotaDisplayFrom } from '../../../lib/quota';
import { useIsMobile } from '../../../lib/use-media-query';
import { useCreateRedemptions } from '../api/use-create-redemptions';
import { useRedemption } from '../api/use-redemption';
import { useUpdateRedemption } from '../api/use-update-redemption';
import type { Redemption, RedemptionInput } from '../types';

export interface RedemptionFormValues {
  name: string;
  quota: number | null;
  count: number | null;
  /** null: never expires. */
  expires: Dayjs | null;
}

/** Quota presets in dollars of credit, turned into quota with the operator's quota-per-unit. */
const QUOTA_PRESETS_USD = [1, 10, 50, 100] as const;
const COUNT_PRESETS = [1, 10, 50, REDEMPTION_BATCH_MAX] as const;
const EXPIRY_SHORTCUTS = [
  { key: 'never', labelKey: 'redemption.expiry_never', days: null },
  { key: 'week', labelKey: 'redemption.expiry_week', days: 7 },
  { key: 'month', labelKey: 'redemption.expiry_month', days: 30 },
  { key: 'year', labelKey: 'redemption.expiry_year', days: 365 },
] as const;

/** Whole numbers only: the spec parses quota and count as integers. */
function toInteger(value: number | null | undefined): number {
  return Number.isFinite(value) ? Math.trunc(value as number) : 0;
}

interface RedemptionFormDrawerProps {
  open: boolean;
  /** The row being edited; undefined creates. */
  code?: Redemption;
  onClose: () => void;
  /** Keys of the codes just created, to offer them for copying. */
  onCreated: (keys: string[], name: string) => void;
}

export function RedemptionFormDrawer({ open, code, onClose, onCreated }: RedemptionFormDrawerProps) {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const editing = code !== undefined;
  const stored = useRedemption(open ? code?.id : undefined, code);

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={editing ? t('redemption.edit_title') : t('redemption.create_title')}
      size={isMobile ? '100%' : 520}
      destroyOnHidden
      styles={{ body: { paddingBottom: 24 } }}
    >
      {editing && !stored.data ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : (
        <RedemptionForm
          key={code?.id ?? 'new'}
          code={editing ? stored.data : undefined}
          onDone={onClose}
          onCreated={onCreated}
        />
      )}
    </Drawer>
  );
}

function RedemptionForm({
  code,
  onDone,
  onCreated,
}: {
  code?: Redemption;
  onDone: () => void;
  onCreated: (keys: string[], name: string) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<RedemptionFormValues>();
  const status = usePublicStatus();
  const formatQuota = useFormatQuota();
  const { quotaPerUnit } = quotaDisplayFrom(status);
  const create = useCreateRedemptions();
  const update = useUpdateRedemption();
  const editing = code !== undefined;
  const used = code?.status === RedemptionStatus.Used;
  // On create the name is the formatted quota and follows it, until the admin types a name of their own.
  const nameFollowsQuota = useRef(!editing);

  // Read once per form (the drawer remounts the form per code); later status changes are handled below.
  const [initialValues] = useState<RedemptionFormValues>(() =>
    code
      ? {
          name: code.name,
          quota: code.quota,
          count: 1,
          expires: code.expired_time === 0 ? null : dayjs.unix(code.expired_time),
        }
      : { name: formatQuota(REDEMPTION_DEFAULT_QUOTA), quota: REDEMPTION_DEFAULT_QUOTA, count: 1, expires: null },
  );
  const quota = Form.useWatch('quota', form);

  // The status (quota display) can arrive after the form opened: keep a following name in step with it.
  useEffect(() => {
    if (nameFollowsQuota.current) form.setFieldValue('name', formatQuota(toInteger(form.getFieldValue('quota'))));
  }, [form, formatQuota]);

  const setQuota = (value: number) => {
    form.setFieldValue('quota', value);
    if (nameFollowsQuota.current) form.setFieldValue('name', formatQuota(value));
    void form.validateFields(['quota']);
  };

  const onValuesChange = (changed: Partial<RedemptionFormValues>) => {
    if ('name' in changed) nameFollowsQuota.current = !editing && !changed.name?.trim();
    if ('quota' in changed && nameFollowsQuota.current)
      form.setFieldValue('name', formatQuota(toInteger(changed.quota)));
  };

  const onFinish = (values: RedemptionFormValues) => {
    const quotaValue = toInteger(values.quota);
    const input: RedemptionInput = {
      name: values.name?.trim() || formatQuota(quotaValue),
      quota: quotaValue,
      expired_time: values.expires ? values.expires.unix() : 0,
    };
    if (code) {
      update.mutate(
        { ...input, id: code.id },
        {
          onSuccess: () => {
            notify.success(t('redemption.updated'));
            onDone();
          },
        },
      );
      return;
    }
    create.mutate(
      { ...input, count: toInteger(values.count) },
      {
        onSuccess: (keys) => {
          onDone();
          onCreated(keys ?? [], input.name);
        },
      },
    );
  };

  const setExpiry = (days: number | null) => {
    form.setFieldValue('expires', days === null ? null : dayjs().add(days, 'day').endOf('day'));
    void form.validateFields(['expires']);
  };

  return (
    <Form<RedemptionFormValues>
      form={form}
      layout="vertical"
      initialValues={initialValues}
      onValuesChange={onValuesChange}
      onFinish={onFinish}
      data-testid="redemption-form"
    >
      {used && <Alert type="warning" showIcon title={t('redemption.used_cannot_edit')} style={{ marginBottom: 16 }} />}

      <Form.Item
        name="name"
        label={t('redemption.field_name')}
        extra={editing ? undefined : t('redemption.field_name_help')}
        rules={[
          // On create a blank name falls back to the formatted quota; an edit must keep a name.
          { required: editing, whitespace: true, message: t('errors:redemption_name_required') },
          { max: REDEMPTION_NAME_MAX, message: t('errors:redemption_name_too_long') },
        ]}
      >
        <Input maxLength={REDEMPTION_NAME_MAX} showCount allowClear />
      </Form.Item>

      <PresetField
        name="quota"
        label={t('redemption.field_quota')}
        required
        help={t('redemption.field_quota_equals', { value: formatQuota(toInteger(quota)) })}
        presets={QUOTA_PRESETS_USD.map((usd) => ({
          key: usd,
          label: `$${usd}`,
          apply: () => setQuota(Math.round(usd * quotaPerUnit)),
        }))}
        rules={[wholeNumberRule(t('errors:redemption_quota_invalid'), 1)]}
      >
        <InputNumber min={1} precision={0} style={{ width: '100%' }} aria-label={t('redemption.field_quota')} />
      </PresetField>

      {!editing && (
        <PresetField
          name="count"
          label={t('redemption.field_count')}
          required
          help={t('redemption.field_count_help', { max: REDEMPTION_BATCH_MAX })}
          presets={COUNT_PRESETS.map((count) => ({
            key: count,
            label: t('redemption.count_preset', { count }),
            apply: () => form.setFieldValue('count', count),
          }))}
          rules={[wholeNumberRule(t('errors:redemption_count_invalid'), 1, REDEMPTION_BATCH_MAX)]}
        >
          <InputNumber
            min={1}
            max={REDEMPTION_BATCH_MAX}
            precision={0}
            style={{ width: '100%' }}
            aria-label={t('redemption.field_count')}
          />
        </PresetField>
      )}

      <PresetField
        name="expires"
        label={t('redemption.field_expiry')}
        presets={EXPIRY_SHORTCUTS.map((shortcut) => ({
          key: shortcut.key,
          label: t(shortcut.labelKey),
          apply: () => setExpiry(shortcut.days),
        }))}
        rules={[
          {
            validator: (_, value: Dayjs | null) => {
              if (value === null || value === undefined) return Promise.resolve();
              if (!dayjs.isDayjs(value) || !value.isValid())
                return Promise.reject(new Error(t('errors:redemption_expiry_invalid')));
              // An edit may keep an expiry that has already passed; a new code must be redeemable.
              if (!editing && value.isBefore(dayjs())) return Promise.reject(new Error(t('redemption.expiry_in_past')));
              return Promise.resolve();
            },
          },
        ]}
      >
        <DatePicker
          showTime
          format="YYYY-MM-DD HH:mm:ss"
          placeholder={t('redemption.expiry_never')}
          style={{ width: '100%' }}
          aria-label={t('redemption.field_expiry')}
          disabledDate={(date) => date.isBefore(dayjs(), 'day')}
        />
      </PresetField>

      <Flex gap={8} justify="flex-end">
        <Button onClick={onDone}>{t('ui.cancel')}</Button>
        <Button type="primary" htmlType="submit" disabled={used} loading={create.isPending || update.isPending}>
          {editing ? t('ui.save') : t('ui.create')}
        </Button>
      </Flex>
    </Form>
  );
}
