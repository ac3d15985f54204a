import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTurnstile } from '../../../components/account/turnstile-widget';
import { useBrand } from '../../../components/brand';
import { FormCard } from '../../../components/form-card';
import { PasskeyLoginButton } from '../../../components/passkey/passkey-login-button';
import { usePublicStatus } from '../../../hooks/use-status';
import { notify } from '../../../lib/notify';
import { writeStorage } from '../../../lib/storage';
import { STORAGE_KEYS } from '../../../lib/storage-keys';
import { needsSecondStep, useLogin } from '../api/use-login';
import { canRegister } from '../can-register';
import { DefaultPasswordModal } from '../components/default-password-modal';
import { SecondStepForm } from '../components/second-step-form';
import { ThirdPartyLogin } from '../components/third-party-login';
import type { LoginCredentials } from '../types';

/** Where a password login lands (spec 000 §2). */
export const AFTER_LOGIN_PATH = '/token';

// The factory credentials of the family's root account.
function isDefaultRootCredential({ username, password }: LoginCredentials): boolean {
  return username === 'root' && password === '123456';
}

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const status = usePublicStatus();
  const brand = useBrand();
  const login = useLogin();
  const humanCheck = useTurnstile(status);
  const [warnDefaultPassword, setWarnDefaultPassword] = useState(false);
  // Set when the password was right and the account asks for a second step.
  const [flowToken, setFlowToken] = useState<string | null>(null);
  const expired = params.get('expired') === 'true';

  useEffect(() => {
    // An invite code in the link is kept for a registration that may come later.
    const aff = params.get('aff');
    if (aff) writeStorage(STORAGE_KEYS.aff, aff);
  }, [params]);

  const onFinish = (values: Partial<LoginCredentials>) => {
    const credentials = { username: (values.username ?? '').trim(), password: values.password ?? '' };
    if (!credentials.username || !credentials.password) {
      notify.error(t('errors:username_password_required'));
      return;
    }
    if (humanCheck.enabled && !humanCheck.token) {
      notify.info(t('errors:turnstile_pending'));
      return;
    }
    login.mutate(
      { ...credentials, turnstile: humanCheck.token },
      {
        onSettled: humanCheck.renew,
        onSuccess: (answer) => {
          if (needsSecondStep(answer)) {
            setFlowToken(answer.flow_token);
            return;
          }
          notify.success(t('login.success'));
          if (isDefaultRootCredential(credentials)) setWarnDefaultPassword(true);
          else navigate(AFTER_LOGIN_PATH);
        },
      },
    );
  };

  if (flowToken) {
    return (
      <FormCard title={t('two_factor.login_title')} subtitle={t('login.subtitle', { name: brand.name })}>
        <SecondStepForm
          flowToken={flowToken}
          onSignedIn={() => {
            notify.success(t('login.success'));
            navigate(AFTER_LOGIN_PATH);
          }}
          onBack={() => setFlowToken(null)}
        />
      </FormCard>
    );
  }

  return (
    <FormCard title={t('login.title')} subtitle={t('login.subtitle', { name: brand.name })}>
      {expired && (
        <Alert
          type="warning"
          showIcon
          title={t('errors:not_logged_in')}
          style={{ marginBottom: 16 }}
          data-testid="session-expired"
        />
      )}
      <Form<Partial<LoginCredentials>>
        layout="vertical"
        requiredMark={false}
        onFinish={onFinish}
        data-testid="login-form"
      >
        <Form.Item name="username" label={t('login.username')}>
          <Input
            prefix={<UserOutlined />}
            placeholder={t('login.username_placeholder')}
            autoComplete="username"
            size="large"
          />
        </Form.Item>
        <Form.Item name="password" label={t('login.password')}>
          <Input.Password
            prefix={<LockOutlined />}
            placeholder={t('login.password_placeholder')}
            autoComplete="current-password"
            size="large"
          />
        </Form.Item>
        <div className="login-row">
          <Link to="/reset">{t('login.forgot')}</Link>
        </div>
        {humanCheck.widget}
        <Button type="primary" htmlType="submit" size="large" block loading={login.isPending}>
          {t('login.submit')}
        </Button>
      </Form>
      <PasskeyLoginButton status={status} onSignedIn={() => navigate(AFTER_LOGIN_PATH)} />
      <ThirdPartyLogin status={status} />
      {canRegister(status) && (
        <Typography.Paragraph type="secondary" className="login-footer" style={{ margin: '16px 0 0' }}>
          {t('login.no_account')} <Link to="/register">{t('login.register')}</Link>
        </Typography.Paragraph>
      )}
      <DefaultPasswordModal
        open={warnDefaultPassword}
        onChangeNow={() => navigate('/personal')}
        onLater={() => navigate(AFTER_LOGIN_PATH)}
      />
    </FormCard>
  );
}
