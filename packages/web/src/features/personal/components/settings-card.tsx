import { BellOutlined, DollarOutlined } from '@ant-design/icons';
import { QUOTA_WARNING_PRESETS, type SelfUser } from '@gateway/shared';
import { Alert, Button, Card, Flex, Form, Input, InputNumber, Radio, Space, Switch, Tabs, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import { notify } from '../../../lib/notify';
import { useUpdateSetting } from '../api/use-update-setting';
import { isHttpsUrl, parseUserSetting, type UserSetting } from '../user-setting';

type TabKey = 'notify' | 'price';
const NOTIFY_FIELDS = ['notify_type', 'notification_email', 'webhook_url', 'webhook_secret', 'quota_warning_threshold'];

/**
 * Notification and price settings. Both tabs edit the one `setting` object the server stores, so each Save
 * sends all of it; a notification field that fails validation brings its tab back into view.
 */
export function SettingsCard({ user }: { user: SelfUser }) {
  const { t } = useTranslation();
  const formatQuota = useFormatQuota();
  const [form] = Form.useForm<UserSetting>();
  const [tab, setTab] = useState<TabKey>('notify');
  const update = useUpdateSetting();
  const initialValues = useMemo(() => parseUserSetting(user.setting), [user.setting]);
  const notifyType = Form.useWatch('notify_type', form) ?? initialValues.notify_type;

  const onFinish = () => {
    const values: UserSetting = { ...initialValues, ...form.getFieldsValue(true) };
    const setting: UserSetting = {
      ...values,
      webhook_url: (values.webhook_url ?? '').trim(),
      notification_email: (values.notification_email ?? '').trim(),
      quota_warning_threshold: values.quota_warning_threshold ?? 0,
    };
    update.mutate(setting, { onSuccess: () => notify.success(t('errors:setting_saved')) });
  };

  const onFinishFailed = ({ errorFields }: { errorFields: { name: (string | number)[] }[] }) => {
    if (errorFields.some((field) => NOTIFY_FIELDS.includes(String(field.name[0])))) setTab('notify');
  };

  const save = (
    <Flex justify="flex-end">
      <Button type="primary" htmlType="submit" loading={update.isPending}>
        {t('ui.save')}
      </Button>
    </Flex>
  );

  const notifyPane = (
    <div data-testid="personal-notify">
      <Form.Item name="notify_type" label={t('personal.notify_type')}>
        <Radio.Group
          options={[
            { value: 'email', label: t('personal.notify_email') },
            { value: 'webhook', label: t('personal.notify_webhook') },
          ]}
        />
      </Form.Item>
      {notifyType === 'webhook' ? (
        <>
          <Form.Item
            name="webhook_url"
            label={t('personal.webhook_url')}
            extra={t('personal.webhook_url_help')}
            rules={[
              {
                validator: (_, value: string | undefined) =>
                  isHttpsUrl(value ?? '')
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('errors:setting_webhook_https'))),
              },
            ]}
          >
            <Input placeholder="https://example.com/webhook" autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="webhook_secret"
            label={t('personal.webhook_secret')}
            extra={t('personal.webhook_secret_help')}
          >
            <Input.Password placeholder={t('personal.webhook_secret_placeholder')} autoComplete="new-password" />
          </Form.Item>
        </>
      ) : (
        <Form.Item
          name="notification_email"
          label={t('personal.notification_email')}
          extra={t('personal.notification_email_help')}
          rules={[{ type: 'email', message: t('errors:user_email_invalid') }]}
        >
          <Input placeholder={user.email || t('personal.notification_email_placeholder')} autoComplete="off" />
        </Form.Item>
      )}
      <Form.Item
        label={t('personal.threshold')}
        extra={
          <>
            <div>{t('personal.threshold_help')}</div>
            <Space size={4} wrap style={{ marginTop: 8 }}>
              {QUOTA_WARNING_PRESETS.map((preset) => (
                <Button key={preset} size="small" onClick={() => form.setFieldValue('quota_warning_threshold', preset)}>
                  {formatQuota(preset)}
                </Button>
              ))}
            </Space>
          </>
        }
      >
        <Form.Item
          name="quota_warning_threshold"
          noStyle
          rules={[
            {
              validator: (_, value: number | null) =>
                Number.isSafeInteger(value) && (value ?? -1) >= 0
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('errors:setting_threshold_invalid'))),
            },
          ]}
        >
          <InputNumber
            min={0}
            precision={0}
            style={{ width: '100%' }}
            aria-label={t('personal.threshold')}
            suffix={<ThresholdEquals form={form} />}
          />
        </Form.Item>
      </Form.Item>
      {save}
    </div>
  );

  const pricePane = (
    <div data-testid="personal-price">
      <Alert type="warning" showIcon title={t('personal.price_warning')} style={{ marginBottom: 16 }} />
      <Form.Item
        name="accept_unset_model_ratio_model"
        label={t('personal.accept_unset')}
        extra={t('personal.accept_unset_help')}
        valuePropName="checked"
      >
        <Switch />
      </Form.Item>
      {save}
    </div>
  );

  return (
    <Card className="personal-card personal-settings" title={t('personal.settings_title')}>
      <Form<UserSetting>
        form={form}
        layout="vertical"
        initialValues={initialValues}
        onFinish={onFinish}
        onFinishFailed={onFinishFailed}
      >
        <Tabs
          activeKey={tab}
          onChange={(key) => setTab(key as TabKey)}
          items={[
            {
              key: 'notify',
              label: (
                <span>
                  <BellOutlined /> {t('personal.tab_notify')}
                </span>
              ),
              children: notifyPane,
              forceRender: true,
            },
            {
              key: 'price',
              label: (
                <span>
                  <DollarOutlined /> {t('personal.tab_price')}
                </span>
              ),
              children: pricePane,
              forceRender: true,
            },
          ]}
        />
      </Form>
      <Typography.Text type="secondary" className="personal-hint">
        {t('personal.settings_hint')}
      </Typography.Text>
    </Card>
  );
}

/** The threshold as the operator shows money, next to the raw number. */
function ThresholdEquals({ form }: { form: ReturnType<typeof Form.useForm<UserSetting>>[0] }) {
  const formatQuota = useFormatQuota();
  const value = Form.useWatch('quota_warning_threshold', form);
  return (
    <Typography.Text type="secondary" className="nowrap">
      ≈ {formatQuota(value ?? 0)}
    </Typography.Text>
  );
}
