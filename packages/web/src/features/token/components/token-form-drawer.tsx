import {
  isIpOrCidr,
  splitAllowIps,
  splitModelList,
  TOKEN_BATCH_MAX,
  TOKEN_BATCH_PRESETS,
  TOKEN_DEFAULT_QUOTA,
  TOKEN_NAME_MAX,
  TOKEN_QUOTA_PRESETS_USD,
} from '@gateway/shared';
import { Alert, Button, DatePicker, Drawer, Flex, Form, Input, InputNumber, Select, Skeleton, Switch, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { FallbackModelsField } from '../../../components/fallback/fallback-models-field';
import { PresetField, wholeNumberRule } from '../../../components/form/preset-field';
import {
  LimitsFieldset,
  type LimitsFormValues,
  limitsFormValues,
  limitsInput,
} from '../../../components/limits/token-limits-form';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import { usePricedModels } from '../../../hooks/use-priced-models';
import { usePublicStatus } from '../../../hooks/use-status';
import { useUserModels } from '../../../hooks/use-user-models';
import { notify } from '../../../lib/notify';
import { quotaDisplayFrom } from '../../../lib/quota';
import { useIsMobile } from '../../../lib/use-media-query';
import { useCreateToken } from '../api/use-create-token';
import { useToken } from '../api/use-token';
import { useUpdateToken } from '../api/use-update-token';
import { useUserGroups } from '../api/use-user-groups';
import type { Token, TokenPayload } from '../types';

export interface TokenFormValues extends LimitsFormValues {
  name: string;
  remain_quota: number | null;
  unlimited_quota: boolean;
  /** null: never expires. */
  expires: Dayjs | null;
  count: number | null;
  model_limits_enabled: boolean;
  model_limits: string[];
  allow_ips: string;
  group: string;
  fallback_models: string[];
}

const EXPIRY_SHORTCUTS = [
  { key: 'never', labelKey: 'token.expiry_never', add: null },
  { key: 'hour', labelKey: 'token.expiry_hour', add: [1, 'hour'] },
  { key: 'day', labelKey: 'token.expiry_day', add: [1, 'day'] },
  { key: 'month', labelKey: 'token.expiry_month', add: [30, 'day'] },
] as const;

function valuesFrom(token: Token | undefined): TokenFormValues {
  if (!token) {
    return {
      name: '',
      remain_quota: TOKEN_DEFAULT_QUOTA,
      unlimited_quota: false,
      expires: null,
      count: 1,
      model_limits_enabled: false,
      model_limits: [],
      allow_ips: '',
      group: '',
      fallback_models: [],
      ...limitsFormValues(undefined),
    };
  }
  return {
    name: token.name,
    remain_quota: token.remain_quota,
    unlimited_quota: token.unlimited_quota,
    expires: token.expired_time === -1 ? null : dayjs.unix(token.expired_time),
    count: 1,
    model_limits_enabled: token.model_limits_enabled,
    model_limits: token.model_limits ? token.model_limits.split(',').filter(Boolean) : [],
    allow_ips: token.allow_ips ?? '',
    group: token.group ?? '',
    fallback_models: splitModelList(token.fallback_models),
    ...limitsFormValues(token),
  };
}

function inputFrom(values: TokenFormValues): TokenPayload {
  return {
    name: values.name.trim(),
    remain_quota: values.remain_quota ?? 0,
    expired_time: values.expires ? values.expires.unix() : -1,
    unlimited_quota: values.unlimited_quota,
    model_limits_enabled: values.model_limits_enabled,
    model_limits: (values.model_limits ?? []).join(','),
    allow_ips: splitAllowIps(values.allow_ips).join('\n'),
    group: values.group,
    fallback_models: (values.fallback_models ?? []).join(','),
    ...limitsInput(values),
  };
}

interface TokenFormDrawerProps {
  open: boolean;
  /** The row being edited; undefined creates. */
  token?: Token;
  onClose: () => void;
}

export function TokenFormDrawer({ open, token, onClose }: TokenFormDrawerProps) {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const editing = token !== undefined;
  const stored = useToken(open ? token?.id : undefined, token);
  const title = editing ? t('token.edit_title') : t('token.create_title');

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={title}
      size={isMobile ? '100%' : 560}
      destroyOnHidden
      styles={{ body: { paddingBottom: 24 } }}
    >
      {editing && !stored.data ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <TokenForm key={token?.id ?? 'new'} token={editing ? stored.data : undefined} onDone={onClose} />
      )}
    </Drawer>
  );
}

function TokenForm({ token, onDone }: { token?: Token; onDone: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<TokenFormValues>();
  const status = usePublicStatus();
  const formatQuota = useFormatQuota();
  const { quotaPerUnit } = quotaDisplayFrom(status);
  const groups = useUserGroups();
  const models = useUserModels();
  const { priced } = usePricedModels();
  const create = useCreateToken();
  const update = useUpdateToken();
  const editing = token !== undefined;
  const initialValues = useMemo(() => valuesFrom(token), [token]);

  const unlimited = Form.useWatch('unlimited_quota', form);
  const limitsEnabled = Form.useWatch('model_limits_enabled', form);
  const quota = Form.useWatch('remain_quota', form);

  const groupOptions = useMemo(() => {
    const entries = Object.entries(groups.data ?? {});
    return [
      { value: '', label: t('token.group_own'), title: t('token.group_own') },
      ...entries.map(([name, info]) => ({
        value: name,
        label: (
          <Flex justify="space-between" gap={8}>
            <span>{info.desc && info.desc !== name ? `${name} · ${info.desc}` : name}</span>
            <Tag color="blue" variant="filled">
              {t('token.group_ratio', { ratio: info.ratio })}
            </Tag>
          </Flex>
        ),
        title: name,
      })),
    ];
  }, [groups.data, t]);
  const noGroups = groups.isSuccess && Object.keys(groups.data ?? {}).length === 0;

  const onFinish = (submitted: TokenFormValues) => {
    // Hidden fields (quota while unlimited, limits while off) keep their values in the store, not in `submitted`.
    const values: TokenFormValues = { ...form.getFieldsValue(true), ...submitted };
    const input = inputFrom(values);
    if (editing) {
      update.mutate(
        { ...input, id: token.id },
        {
          onSuccess: () => {
            notify.success(t('token.updated'));
            onDone();
          },
        },
      );
      return;
    }
    const count = values.count ?? 1;
    create.mutate(
      { ...input, count },
      {
        onSuccess: (created) => {
          notify.success(t('token.created', { count: created?.length ?? count }));
          onDone();
        },
      },
    );
  };

  const setExpiry = (add: readonly [number, 'hour' | 'day'] | null) =>
    form.setFieldValue('expires', add ? dayjs().add(add[0], add[1]) : null);

  return (
    <Form<TokenFormValues>
      form={form}
      layout="vertical"
      initialValues={initialValues}
      onFinish={onFinish}
      data-testid="token-form"
    >
      <Form.Item
        name="name"
        label={t('token.field_name')}
        rules={[
          { required: !editing, whitespace: true, message: t('errors:token_name_required') },
          { max: TOKEN_NAME_MAX, message: t('errors:token_name_too_long') },
        ]}
      >
        <Input placeholder={t('token.field_name_placeholder')} maxLength={TOKEN_NAME_MAX} showCount allowClear />
      </Form.Item>

      <Form.Item name="group" label={t('token.field_group')} extra={noGroups ? undefined : t('token.field_group_help')}>
        <Select options={groupOptions} loading={groups.isPending} optionLabelProp="title" />
      </Form.Item>
      {noGroups && <Alert type="warning" showIcon title={t('errors:no_usable_groups')} style={{ marginBottom: 16 }} />}

      <PresetField
        name="expires"
        label={t('token.field_expiry')}
        required={false}
        presets={EXPIRY_SHORTCUTS.map((shortcut) => ({
          key: shortcut.key,
          label: t(shortcut.labelKey),
          apply: () => setExpiry(shortcut.add),
        }))}
        rules={[
          {
            validator: (_, value: Dayjs | null) =>
              value === null || value === undefined || (dayjs.isDayjs(value) && value.isValid())
                ? Promise.resolve()
                : Promise.reject(new Error(t('errors:token_expiry_invalid'))),
          },
        ]}
      >
        <DatePicker
          showTime
          format="YYYY-MM-DD HH:mm:ss"
          placeholder={t('token.expiry_never')}
          style={{ width: '100%' }}
          aria-label={t('token.field_expiry')}
        />
      </PresetField>

      <Form.Item name="unlimited_quota" label={t('token.field_unlimited')} valuePropName="checked">
        <Switch />
      </Form.Item>

      {!unlimited && (
        <PresetField
          name="remain_quota"
          label={t('token.field_quota')}
          help={t('token.field_quota_equals', { value: formatQuota(quota ?? 0) })}
          presets={TOKEN_QUOTA_PRESETS_USD.map((usd) => ({
            key: usd,
            label: `$${usd}`,
            apply: () => form.setFieldValue('remain_quota', Math.round(usd * quotaPerUnit)),
          }))}
          rules={[wholeNumberRule(t('errors:token_quota_invalid'), 0)]}
        >
          <InputNumber min={0} precision={0} style={{ width: '100%' }} aria-label={t('token.field_quota')} />
        </PresetField>
      )}

      {!editing && (
        <PresetField
          name="count"
          label={t('token.field_count')}
          help={t('token.field_count_help')}
          presets={TOKEN_BATCH_PRESETS.map((count) => ({
            key: count,
            label: count,
            apply: () => form.setFieldValue('count', count),
          }))}
          rules={[wholeNumberRule(t('errors:token_count_invalid'), 1, TOKEN_BATCH_MAX)]}
        >
          <InputNumber precision={0} style={{ width: '100%' }} aria-label={t('token.field_count')} />
        </PresetField>
      )}

      <Form.Item name="model_limits_enabled" label={t('token.field_model_limits')} valuePropName="checked">
        <Switch />
      </Form.Item>
      {limitsEnabled && (
        <Form.Item name="model_limits" extra={t('token.field_model_limits_help')}>
          <Select
            mode="multiple"
            allowClear
            loading={models.isPending}
            placeholder={t('token.field_model_limits_placeholder')}
            options={(models.data ?? []).map((model) => ({ value: model, label: model }))}
            aria-label={t('token.field_model_limits')}
            maxTagCount="responsive"
          />
        </Form.Item>
      )}

      <FallbackModelsField models={models.data ?? []} loading={models.isPending} priced={priced} />

      <Form.Item
        name="allow_ips"
        label={t('token.field_allow_ips')}
        extra={t('token.field_allow_ips_help')}
        rules={[
          {
            validator: (_, value: string) =>
              splitAllowIps(value).every(isIpOrCidr)
                ? Promise.resolve()
                : Promise.reject(new Error(t('errors:token_allow_ips_invalid'))),
          },
        ]}
      >
        <Input.TextArea
          autoSize={{ minRows: 2, maxRows: 6 }}
          placeholder={t('token.field_allow_ips_placeholder')}
          className="mono-text"
        />
      </Form.Item>

      <LimitsFieldset />

      <Flex gap={8} justify="flex-end">
        <Button onClick={onDone}>{t('ui.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={create.isPending || update.isPending}>
          {editing ? t('ui.save') : t('ui.create')}
        </Button>
      </Flex>
    </Form>
  );
}
