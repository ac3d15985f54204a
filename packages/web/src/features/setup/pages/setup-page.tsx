import { KeyOutlined, LockOutlined, QuestionCircleOutlined, UserOutlined } from '@ant-design/icons';
import { PASSWORD_MAX, PASSWORD_MIN, SETUP_USERNAME_MAX } from '@gateway/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Divider, Form, Input, Radio, Result, Space, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FormCard } from '../../../components/form-card';
import { PageLoading } from '../../../components/page-loading';
import { statusQueryKey } from '../../../hooks/use-status';
import { ApiError } from '../../../lib/api';
import { notify } from '../../../lib/notify';
import { useSetupState } from '../api/use-setup-state';
import { useSubmitSetup } from '../api/use-submit-setup';
import { DatabaseNotice } from '../components/database-notice';
import { UsageModeHelp } from '../components/usage-mode-help';
import { USAGE_MODES, type UsageMode, usageModeFlags } from '../usage-mode';

/** The spec's pause between "initialised" and the reload that shows the console. */
export const SETUP_RELOAD_DELAY_MS = 1500;

interface SetupFormValues {
  setupToken?: string;
  username?: string;
  password?: string;
  confirmPassword?: string;
  mode: UsageMode;
}

export default function SetupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const setupState = useSetupState();
  const submit = useSubmitSetup();
  const [form] = Form.useForm<SetupFormValues>();
  const [helpOpen, setHelpOpen] = useState(false);
  const [finished, setFinished] = useState(false);
  const reloadTimer = useRef<number | undefined>(undefined);

  useEffect(() => {
    if (!setupState.data?.status) return;
    // Refresh the status first: a stale "not set up" copy (setup finished in another tab) would send the
    // visitor straight back here.
    void queryClient.invalidateQueries({ queryKey: statusQueryKey }).then(() => navigate('/', { replace: true }));
  }, [setupState.data?.status, navigate, queryClient]);
  useEffect(() => () => window.clearTimeout(reloadTimer.current), []);

  if (setupState.isPending) return <PageLoading rows={8} />;
  if (setupState.isError) {
    return (
      <Result
        status="error"
        title={t('setup.load_failed')}
        subTitle={setupState.error.message}
        extra={
          <Button type="primary" onClick={() => void setupState.refetch()}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  }

  const rootExists = setupState.data.root_init;
  // Servers of the family (and ours before the token) do not send the flag: no token is asked for then.
  const tokenRequired = setupState.data.setup_token_required === true;

  const onFinish = (values: SetupFormValues) => {
    submit.mutate(
      {
        // With an admin already there, only the mode is chosen; the server ignores the account fields.
        username: rootExists ? '' : (values.username ?? '').trim(),
        password: rootExists ? '' : (values.password ?? ''),
        confirmPassword: rootExists ? '' : (values.confirmPassword ?? ''),
        ...usageModeFlags(values.mode),
        ...(tokenRequired ? { setup_token: (values.setupToken ?? '').trim() } : {}),
      },
      {
        onSuccess: (envelope) => {
          setFinished(true);
          notify.success(envelope.message || t('setup.success'));
          // A full reload, so the status, the gate and every cached flag start from the new state.
          reloadTimer.current = window.setTimeout(() => window.location.assign('/'), SETUP_RELOAD_DELAY_MS);
        },
        onError: (error) => {
          const business = error instanceof ApiError && error.kind === 'business';
          notify.error(business ? error.message || t('setup.failed') : t('setup.network_failed'));
        },
      },
    );
  };

  return (
    <FormCard title={t('setup.title')} subtitle={t('setup.subtitle')} width={560}>
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <DatabaseNotice type={setupState.data.database_type} />
        <Form<SetupFormValues>
          form={form}
          layout="vertical"
          requiredMark={false}
          initialValues={{ mode: 'external' }}
          onFinish={onFinish}
          disabled={finished}
          data-testid="setup-form"
        >
          {tokenRequired && (
            <Form.Item
              name="setupToken"
              label={t('setup.token')}
              // Only SQLite installs keep it in a file too.
              extra={t(setupState.data.database_type === 'sqlite' ? 'setup.token_help' : 'setup.token_help_log')}
              rules={[{ required: true, whitespace: true, message: t('setup.token_required') }]}
            >
              <Input.Password
                prefix={<KeyOutlined />}
                placeholder={t('setup.token_placeholder')}
                autoComplete="off"
                spellCheck={false}
              />
            </Form.Item>
          )}
          <Divider titlePlacement="start" plain>
            {t('setup.admin_section')}
          </Divider>
          {rootExists ? (
            <Alert
              type="info"
              showIcon
              title={t('setup.root_exists')}
              data-testid="root-exists"
              style={{ marginBottom: 16 }}
            />
          ) : (
            <>
              <Form.Item
                name="username"
                label={t('setup.username')}
                rules={[
                  { required: true, whitespace: true, message: t('errors:setup_username_required') },
                  { max: SETUP_USERNAME_MAX, message: t('errors:setup_username_too_long') },
                ]}
              >
                <Input
                  prefix={<UserOutlined />}
                  placeholder={t('setup.username_placeholder')}
                  autoComplete="username"
                />
              </Form.Item>
              <Form.Item
                name="password"
                label={t('setup.password')}
                rules={[
                  { required: true, message: t('errors:password_too_short') },
                  { min: PASSWORD_MIN, message: t('errors:password_too_short') },
                  { max: PASSWORD_MAX, message: t('errors:password_too_long') },
                ]}
              >
                <Input.Password
                  prefix={<LockOutlined />}
                  placeholder={t('setup.password_placeholder', { min: PASSWORD_MIN, max: PASSWORD_MAX })}
                  autoComplete="new-password"
                />
              </Form.Item>
              <Form.Item
                name="confirmPassword"
                label={t('setup.confirm_password')}
                dependencies={['password']}
                rules={[
                  { required: true, message: t('errors:passwords_do_not_match') },
                  ({ getFieldValue }) => ({
                    validator: (_rule, value) =>
                      !value || value === getFieldValue('password')
                        ? Promise.resolve()
                        : Promise.reject(new Error(t('errors:passwords_do_not_match'))),
                  }),
                ]}
              >
                <Input.Password
                  prefix={<LockOutlined />}
                  placeholder={t('setup.confirm_password_placeholder')}
                  autoComplete="new-password"
                />
              </Form.Item>
            </>
          )}
          <Divider titlePlacement="start" plain>
            {t('setup.mode_section')}
          </Divider>
          <Form.Item
            name="mode"
            label={
              <Space size={4}>
                {t('setup.mode_label')}
                <Button
                  type="link"
                  size="small"
                  icon={<QuestionCircleOutlined />}
                  onClick={() => setHelpOpen(true)}
                  aria-label={t('setup.mode_help')}
                >
                  {t('setup.mode_help')}
                </Button>
              </Space>
            }
          >
            <Radio.Group style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
              {USAGE_MODES.map((mode) => (
                <Radio key={mode} value={mode} className="mode-radio">
                  <Typography.Text strong>{t(`setup.mode.${mode}`)}</Typography.Text>
                  <Typography.Text type="secondary" className="mode-radio-hint">
                    {t(`setup.mode_hint.${mode}`)}
                  </Typography.Text>
                </Radio>
              ))}
            </Radio.Group>
          </Form.Item>
          <Button type="primary" htmlType="submit" size="large" block loading={submit.isPending || finished}>
            {t('setup.submit')}
          </Button>
        </Form>
      </Space>
      <UsageModeHelp open={helpOpen} onClose={() => setHelpOpen(false)} />
    </FormCard>
  );
}
