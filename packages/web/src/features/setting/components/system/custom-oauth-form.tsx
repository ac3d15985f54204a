import { CloudDownloadOutlined } from '@ant-design/icons';
import type { CustomOAuthProviderInput, CustomOAuthProviderView } from '@gateway/shared';
import { Alert, Button, Col, Divider, Form, Input, Modal, Row, Select, Space, Switch } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../../lib/notify';
import { useCustomOAuthDiscovery, useSaveCustomOAuthProvider } from '../../api/use-custom-oauth-providers';

type Values = Required<Omit<CustomOAuthProviderInput, 'client_secret'>> & { client_secret?: string };

const DEFAULTS: Partial<Values> = {
  enabled: true,
  scopes: 'openid profile email',
  user_id_field: 'sub',
  username_field: 'preferred_username',
  display_name_field: 'name',
  email_field: 'email',
  auth_style: 0,
};

const url = (t: (key: string) => string) => ({ pattern: /^https?:\/\/\S+$/i, message: t('custom_oauth.url_invalid') });

/**
 * Adds or edits one custom provider. The well-known URL fills the endpoints through the server; the client secret
 * is write-only: when one is stored the field stays empty, and leaving it empty keeps it.
 */
export function CustomOAuthForm({
  open,
  provider,
  server,
  onClose,
}: {
  open: boolean;
  provider: CustomOAuthProviderView | null;
  server: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const save = useSaveCustomOAuthProvider();
  const discovery = useCustomOAuthDiscovery();
  const slug = Form.useWatch('slug', form);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(provider ? { ...provider, client_secret: '' } : DEFAULTS);
  }, [open, provider, form]);

  const discover = () => {
    const wellKnown = String(form.getFieldValue('well_known') ?? '').trim();
    if (!/^https?:\/\/\S+$/i.test(wellKnown)) {
      notify.error(t('custom_oauth.url_invalid'));
      return;
    }
    discovery.mutate(wellKnown, {
      onSuccess: ({ discovery: document }) => {
        const text = (value: unknown) => (typeof value === 'string' ? value : '');
        form.setFieldsValue({
          authorization_endpoint: text(document.authorization_endpoint),
          token_endpoint: text(document.token_endpoint),
          user_info_endpoint: text(document.userinfo_endpoint),
        });
        notify.success(t('custom_oauth.discovered'));
      },
      onError: (error) => notify.error(t('custom_oauth.discovery_failed', { reason: error.message })),
    });
  };

  const submit = (values: Values) => {
    const { client_secret: secret, ...rest } = values;
    const input: CustomOAuthProviderInput = { ...rest, ...(secret ? { client_secret: secret } : {}) };
    save.mutate(
      { id: provider?.id, input },
      {
        onSuccess: () => {
          notify.success(t('custom_oauth.saved'));
          // The typed secret leaves the page with the form: it is never kept or shown again.
          form.resetFields();
          onClose();
        },
      },
    );
  };

  return (
    <Modal
      open={open}
      width={760}
      title={provider ? t('custom_oauth.edit_title', { name: provider.name }) : t('custom_oauth.add_title')}
      onCancel={onClose}
      okText={t('ui.save')}
      cancelText={t('ui.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      destroyOnHidden
      forceRender
    >
      <Form form={form} name="custom_oauth" layout="vertical" onFinish={submit} data-testid="custom-oauth-form">
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="name" label={t('custom_oauth.name')} rules={[{ required: true, whitespace: true }]}>
              <Input maxLength={64} placeholder="Acme ID" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="slug"
              label={t('custom_oauth.slug')}
              tooltip={t('custom_oauth.slug_help')}
              rules={[{ required: true, pattern: /^[a-z0-9-]{1,64}$/, message: t('custom_oauth.slug_invalid') }]}
            >
              <Input maxLength={64} placeholder="acme" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="icon" label={t('custom_oauth.icon')} tooltip={t('custom_oauth.icon_help')}>
              <Input maxLength={128} placeholder="https://idp.example.com/favicon.png" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="enabled" label={t('custom_oauth.enabled')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
        </Row>
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('custom_oauth.callback_hint', { url: `${server}/oauth/${slug || '<slug>'}` })}
        />
        <Divider plain>{t('custom_oauth.endpoints')}</Divider>
        <Form.Item label={t('custom_oauth.well_known')} tooltip={t('custom_oauth.well_known_help')}>
          <Space.Compact style={{ width: '100%' }}>
            <Form.Item name="well_known" noStyle rules={[url(t)]}>
              <Input placeholder="https://idp.example.com/.well-known/openid-configuration" />
            </Form.Item>
            <Button icon={<CloudDownloadOutlined />} onClick={discover} loading={discovery.isPending}>
              {t('custom_oauth.discover')}
            </Button>
          </Space.Compact>
        </Form.Item>
        <Form.Item
          name="authorization_endpoint"
          label={t('custom_oauth.authorization_endpoint')}
          rules={[{ required: true }, url(t)]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="token_endpoint" label={t('custom_oauth.token_endpoint')} rules={[{ required: true }, url(t)]}>
          <Input />
        </Form.Item>
        <Form.Item
          name="user_info_endpoint"
          label={t('custom_oauth.user_info_endpoint')}
          rules={[{ required: true }, url(t)]}
        >
          <Input />
        </Form.Item>
        <Divider plain>{t('custom_oauth.client')}</Divider>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="client_id" label={t('custom_oauth.client_id')} rules={[{ required: true }]}>
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="client_secret" label={t('custom_oauth.client_secret')}>
              <Input.Password
                autoComplete="new-password"
                placeholder={provider?.client_secret_set ? t('custom_oauth.secret_kept') : ''}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="scopes" label={t('custom_oauth.scopes')}>
              <Input placeholder="openid profile email" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="auth_style" label={t('custom_oauth.auth_style')}>
              <Select
                options={[
                  { value: 0, label: t('custom_oauth.auth_style_auto') },
                  { value: 1, label: t('custom_oauth.auth_style_params') },
                  { value: 2, label: t('custom_oauth.auth_style_header') },
                ]}
              />
            </Form.Item>
          </Col>
        </Row>
        <Divider plain>{t('custom_oauth.claims')}</Divider>
        <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('custom_oauth.claims_help')} />
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="user_id_field" label={t('custom_oauth.user_id_field')} rules={[{ required: true }]}>
              <Input placeholder="sub" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="username_field" label={t('custom_oauth.username_field')}>
              <Input placeholder="preferred_username" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="display_name_field" label={t('custom_oauth.display_name_field')}>
              <Input placeholder="name" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="email_field" label={t('custom_oauth.email_field')}>
              <Input placeholder="email" />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </Modal>
  );
}
