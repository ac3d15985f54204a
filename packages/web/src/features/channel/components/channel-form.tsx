import { ClearOutlined, CloudDownloadOutlined, PlusOutlined, ThunderboltOutlined } from '@ant-design/icons';
import {
  baseUrlEndsWithV1,
  CHANNEL_PRIORITY_MIN,
  CHANNEL_TYPE_OPTIONS,
  channelType,
  parseJsonObjectField,
  splitKeys,
  splitModels,
  validateChannelInput,
} from '@gateway/shared';
import { App, Button, Card, Collapse, Flex, Form, Input, InputNumber, Select, Space, Switch, Tag } from 'antd';
import type { Rule } from 'antd/es/form';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { notify } from '../../../lib/notify';
import { useCreateChannel } from '../api/use-create-channel';
import { useFetchModels } from '../api/use-fetch-models';
import { useGroups } from '../api/use-groups';
import { useUpdateChannel } from '../api/use-update-channel';
import { type ChannelFormValues, channelPayload, DEFAULT_CHANNEL_GROUP, fieldOfError } from '../channel-form-values';
import { ClaudeCacheSwitch } from './claude-cache-switch';
import { LogBodiesSwitch } from './log-bodies-switch';
import { PrivateAddressHint } from './private-address-hint';
import { ResponsesModeSelect } from './responses-mode-select';

const MODEL_MAPPING_EXAMPLE = '{\n  "gpt-3.5-turbo": "gpt-4o-mini"\n}';
const JSON_FIELDS = ['status_code_mapping', 'param_override', 'header_override', 'setting'] as const;
const ADVANCED_FIELDS: ReadonlySet<string> = new Set([
  ...JSON_FIELDS,
  'test_model',
  'tag',
  'priority',
  'weight',
  'max_input_tokens',
  'auto_ban',
  'openai_organization',
  'remark',
]);

interface ChannelFormProps {
  /** Edit mode when set. */
  channelId?: number;
  initialValues: ChannelFormValues;
}

export function ChannelForm({ channelId, initialValues }: ChannelFormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { modal } = App.useApp();
  const [form] = Form.useForm<ChannelFormValues>();
  const editing = channelId !== undefined;
  const groups = useGroups();
  const fetchModels = useFetchModels();
  const create = useCreateChannel();
  const update = useUpdateChannel();
  const [customModel, setCustomModel] = useState('');
  // Collapsed by default and rendered only when opened: the form stays light; the store keeps the values.
  const [advancedOpen, setAdvancedOpen] = useState(false);
  const previousType = useRef(initialValues.type);

  const type = Form.useWatch('type', form) ?? initialValues.type;
  const models: string[] = Form.useWatch('models', form) ?? initialValues.models;
  const batch = Form.useWatch('batch', form) ?? false;
  const keyText: string = Form.useWatch('key', form) ?? '';
  const info = channelType(type);

  const typeOptions = useMemo(
    () =>
      CHANNEL_TYPE_OPTIONS.map((option) => ({
        value: option.value,
        label: option.label,
        search: `${option.label} ${option.name} ${option.value}`,
        color: option.color,
      })),
    [],
  );

  const groupOptions = useMemo(() => {
    const names = new Set([DEFAULT_CHANNEL_GROUP, ...(groups.data ?? []), ...initialValues.groups]);
    return [...names].map((group) => ({ value: group, label: group }));
  }, [groups.data, initialValues.groups]);

  const modelOptions = useMemo(() => {
    const names = new Set([...(info?.presetModels ?? []), ...models]);
    return [...names].map((model) => ({ value: model, label: model }));
  }, [info, models]);

  const setModels = (next: string[]) => form.setFields([{ name: 'models', value: next, errors: [] }]);

  const onTypeChange = (value: number) => {
    const before = channelType(previousType.current);
    const after = channelType(value);
    previousType.current = value;
    const other: string = form.getFieldValue('other') ?? '';
    // Carry the type's default `other` (Azure api-version, type 18 version) unless the admin typed their own.
    if (!other || other === before?.otherDefault) form.setFieldValue('other', after?.otherDefault ?? '');
  };

  const fillPresets = () => {
    const presets = info?.presetModels ?? [];
    if (presets.length === 0) {
      notify.info(t('channel_form.no_presets'));
      return;
    }
    setModels(splitModels([...models, ...presets]));
  };

  const fetchFromUpstream = () => {
    let source: Parameters<typeof fetchModels.mutate>[0];
    if (editing) source = { id: channelId };
    else {
      const key = splitKeys(form.getFieldValue('key') ?? '')[0] ?? '';
      if (!key) {
        notify.error(t('errors:channel_fetch_models_key_required'));
        form.setFields([{ name: 'key', errors: [t('errors:channel_fetch_models_key_required')] }]);
        return;
      }
      source = { base_url: form.getFieldValue('base_url') ?? '', type, key };
    }
    fetchModels.mutate(source, {
      onSuccess: (fetched) => {
        setModels(splitModels([...models, ...(fetched ?? [])]));
        notify.success(t('channel_form.fetched', { count: fetched?.length ?? 0 }));
      },
    });
  };

  const addCustomModels = () => {
    const names = splitModels(customModel);
    if (names.length === 0) return;
    const present = new Set(models);
    const added: string[] = [];
    for (const name of names) {
      if (present.has(name)) notify.warning(t('channel_form.model_exists', { name }));
      else {
        present.add(name);
        added.push(name);
      }
    }
    if (added.length > 0) {
      setModels([...models, ...added]);
      notify.success(t('channel_form.models_added', { count: added.length }));
    }
    setCustomModel('');
  };

  const save = (values: ChannelFormValues) => {
    const payload = channelPayload(values);
    const done = (text: string) => {
      notify.success(text);
      navigate('/channel');
    };
    if (editing) {
      update.mutate({ ...payload, id: channelId }, { onSuccess: () => done(t('channel_form.updated')) });
    } else {
      create.mutate(
        { mode: values.batch ? 'batch' : 'single', channel: payload },
        { onSuccess: (ids) => done(t('channel_form.created', { count: ids?.length ?? 1 })) },
      );
    }
  };

  const fieldLabel = (field: string) => t(`channel_form.${field}`);

  const onFinish = (submitted: ChannelFormValues) => {
    const values: ChannelFormValues = { ...form.getFieldsValue(true), ...submitted };
    const payload = channelPayload(values);
    const error = validateChannelInput(
      { ...payload, models: values.models, groups: values.groups },
      editing ? 'edit' : 'create',
    );
    if (error) {
      const params = error.params?.field
        ? { ...error.params, field: fieldLabel(String(error.params.field)) }
        : error.params;
      const text = t(`errors:${error.code}`, params);
      const field = fieldOfError(error, values);
      if (ADVANCED_FIELDS.has(field)) setAdvancedOpen(true);
      // After the advanced section has rendered the field, so the message lands under it.
      setTimeout(() => {
        form.setFields([{ name: field, errors: [text] }]);
        form.scrollToField(field, { block: 'center' });
      });
      notify.error(text);
      return;
    }
    if (baseUrlEndsWithV1(payload.base_url)) {
      modal.confirm({
        title: t('channel_form.v1_title'),
        content: t('channel_form.v1_content'),
        okText: t('channel_form.v1_continue'),
        cancelText: t('ui.cancel'),
        onOk: () => save(values),
      });
      return;
    }
    save(values);
  };

  const jsonRule = (field: string): Rule => ({
    validator: (_, value: string) =>
      parseJsonObjectField(value).ok
        ? Promise.resolve()
        : Promise.reject(
            new Error(
              field === 'model_mapping'
                ? t('errors:channel_model_mapping_invalid')
                : t('errors:channel_json_invalid', { field: fieldLabel(field) }),
            ),
          ),
  });

  const advanced = (
    <>
      {JSON_FIELDS.map((field) => (
        <Form.Item
          key={field}
          name={field}
          label={fieldLabel(field)}
          extra={t(`channel_form.${field}_help`)}
          rules={[jsonRule(field)]}
        >
          <Input.TextArea
            autoSize={{ minRows: 2, maxRows: 10 }}
            placeholder={t(`channel_form.${field}_placeholder`)}
            className="mono-text"
          />
        </Form.Item>
      ))}
      <LogBodiesSwitch form={form} />
      <ResponsesModeSelect form={form} type={type} />
      <ClaudeCacheSwitch form={form} type={type} />
      <Flex gap={16} wrap className="form-row">
        <Form.Item name="test_model" label={t('channel_form.test_model')} extra={t('channel_form.test_model_help')}>
          <Select
            allowClear
            showSearch
            placeholder={t('channel_form.test_model_placeholder')}
            options={models.map((model) => ({ value: model, label: model }))}
          />
        </Form.Item>
        <Form.Item name="tag" label={t('channel_form.tag')} extra={t('channel_form.tag_help')}>
          <Input maxLength={128} allowClear />
        </Form.Item>
      </Flex>
      <Flex gap={16} wrap className="form-row">
        <Form.Item name="priority" label={t('channel_form.priority')} extra={t('channel_form.priority_help')}>
          <InputNumber precision={0} min={CHANNEL_PRIORITY_MIN} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="weight" label={t('channel_form.weight')} extra={t('channel_form.weight_help')}>
          <InputNumber precision={0} min={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item
          name="max_input_tokens"
          label={t('channel_form.max_input_tokens')}
          extra={t('channel_form.max_input_tokens_help')}
        >
          <InputNumber precision={0} min={0} style={{ width: '100%' }} />
        </Form.Item>
      </Flex>
      <Form.Item
        name="auto_ban"
        label={t('channel_form.auto_ban')}
        extra={t('channel_form.auto_ban_help')}
        valuePropName="checked"
      >
        <Switch />
      </Form.Item>
      <Flex gap={16} wrap className="form-row">
        <Form.Item name="openai_organization" label={t('channel_form.openai_organization')}>
          <Input allowClear placeholder="org-..." />
        </Form.Item>
        <Form.Item name="remark" label={t('channel_form.remark')}>
          <Input allowClear maxLength={255} />
        </Form.Item>
      </Flex>
    </>
  );

  return (
    <Form<ChannelFormValues>
      form={form}
      layout="vertical"
      initialValues={initialValues}
      onFinish={onFinish}
      data-testid="channel-form"
      scrollToFirstError
    >
      <Flex vertical gap={16}>
        <Card title={t('channel_form.section_basic')} size="small">
          <Flex gap={16} wrap className="form-row">
            <Form.Item name="type" label={t('channel_form.type')} required>
              <Select
                showSearch={{ optionFilterProp: 'search' }}
                options={typeOptions}
                onChange={onTypeChange}
                optionRender={(option) => (
                  <Space size={6}>
                    <Tag color={option.data.color} variant="filled" style={{ marginInlineEnd: 0 }}>
                      {option.data.value}
                    </Tag>
                    {option.data.label}
                  </Space>
                )}
              />
            </Form.Item>
            <Form.Item name="name" label={t('channel_form.name')} required>
              <Input placeholder={t('channel_form.name_placeholder')} allowClear maxLength={128} />
            </Form.Item>
          </Flex>
          <Form.Item
            name="base_url"
            label={t('channel_form.base_url')}
            extra={
              info?.defaultBaseUrl
                ? t('channel_form.base_url_help', { url: info.defaultBaseUrl })
                : t('channel_form.base_url_required_help')
            }
          >
            <Input placeholder={info?.defaultBaseUrl || 'https://'} allowClear />
          </Form.Item>
          {info?.otherLabel && (
            <Form.Item
              name="other"
              label={t('channel_form.other', { label: info.otherLabel })}
              extra={info.otherDefault ? t('channel_form.other_default', { value: info.otherDefault }) : undefined}
            >
              <Input placeholder={info.otherDefault ?? info.otherLabel} allowClear />
            </Form.Item>
          )}
          <Form.Item
            name="key"
            label={t('channel_form.key')}
            required={!editing}
            extra={
              editing
                ? t('channel_form.key_edit_help')
                : batch
                  ? t('channel_form.key_batch_help', { count: splitKeys(keyText).length })
                  : t('channel_form.key_help')
            }
          >
            <Input.TextArea
              autoSize={{ minRows: batch ? 4 : 2, maxRows: 12 }}
              placeholder={
                editing ? t('channel_form.key_edit_placeholder') : info?.keyHint || t('channel_form.key_placeholder')
              }
              className="mono-text"
              autoComplete="off"
              spellCheck={false}
            />
          </Form.Item>
          {!editing && (
            <Form.Item
              name="batch"
              label={t('channel_form.batch')}
              extra={t('channel_form.batch_help')}
              valuePropName="checked"
              style={{ marginBottom: 0 }}
            >
              <Switch size="small" />
            </Form.Item>
          )}
        </Card>

        <Card title={t('channel_form.section_models')} size="small">
          <Form.Item
            name="models"
            label={t('channel_form.models')}
            required
            extra={t('channel_form.models_help', { count: models.length })}
          >
            <Select
              mode="tags"
              allowClear
              tokenSeparators={[',']}
              options={modelOptions}
              placeholder={t('channel_form.models_placeholder')}
              aria-label={t('channel_form.models')}
            />
          </Form.Item>
          <Space wrap style={{ marginBottom: 16 }}>
            <Button icon={<ThunderboltOutlined />} onClick={fillPresets}>
              {t('channel_form.fill_presets')}
            </Button>
            <Button icon={<CloudDownloadOutlined />} onClick={fetchFromUpstream} loading={fetchModels.isPending}>
              {t('channel_form.fetch_models')}
            </Button>
            <Button icon={<ClearOutlined />} danger onClick={() => setModels([])}>
              {t('channel_form.clear_models')}
            </Button>
          </Space>
          <PrivateAddressHint error={fetchModels.error} />
          <Space.Compact style={{ width: '100%', marginBottom: 24 }}>
            <Input
              value={customModel}
              onChange={(event) => setCustomModel(event.target.value)}
              onPressEnter={(event) => {
                event.preventDefault();
                addCustomModels();
              }}
              placeholder={t('channel_form.custom_model_placeholder')}
              aria-label={t('channel_form.custom_model')}
            />
            <Button icon={<PlusOutlined />} onClick={addCustomModels}>
              {t('channel_form.add_model')}
            </Button>
          </Space.Compact>
          <Form.Item name="groups" label={t('channel_form.groups')} required>
            <Select
              mode="multiple"
              options={groupOptions}
              loading={groups.isPending}
              placeholder={t('channel_form.groups_placeholder')}
              aria-label={t('channel_form.groups')}
            />
          </Form.Item>
          <Form.Item
            name="model_mapping"
            label={t('channel_form.model_mapping')}
            extra={
              <Space size={4} wrap>
                {t('channel_form.model_mapping_help')}
                <Button
                  type="link"
                  size="small"
                  style={{ padding: 0 }}
                  onClick={() => form.setFieldValue('model_mapping', MODEL_MAPPING_EXAMPLE)}
                >
                  {t('channel_form.fill_template')}
                </Button>
              </Space>
            }
            rules={[jsonRule('model_mapping')]}
          >
            <Input.TextArea
              autoSize={{ minRows: 3, maxRows: 12 }}
              placeholder={t('channel_form.model_mapping_placeholder')}
              className="mono-text"
            />
          </Form.Item>
        </Card>

        <Collapse
          activeKey={advancedOpen ? ['advanced'] : []}
          onChange={(keys) => setAdvancedOpen(keys.includes('advanced'))}
          items={[{ key: 'advanced', label: t('channel_form.section_advanced'), children: advanced }]}
        />

        <Flex gap={8} justify="flex-end" className="form-actions">
          <Button onClick={() => navigate('/channel')}>{t('ui.cancel')}</Button>
          <Button type="primary" htmlType="submit" loading={create.isPending || update.isPending}>
            {editing ? t('ui.save') : t('channel_form.submit_create')}
          </Button>
        </Flex>
      </Flex>
    </Form>
  );
}
