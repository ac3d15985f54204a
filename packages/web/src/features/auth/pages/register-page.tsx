import { LockOutlined, MailOutlined, UserOutlined } from '@ant-design/icons';
import { PASSWORD_MAX, PASSWORD_MIN, registerSchema } from '@gateway/shared';
import { Alert, Button, Form, Input, Result, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTurnstile } from '../../../components/account/turnstile-widget';
import { VerificationCodeInput } from '../../../components/account/verification-code-input';
import { useBrand } from '../../../components/brand';
import { FormCard } from '../../../components/form-card';
import { usePublicStatus } from '../../../hooks/use-status';
import { notify } from '../../../lib/notify';
import { readStorage, writeStorage } from '../../../lib/storage';
import { STORAGE_KEYS } from '../../../lib/storage-keys';
import { useRegister } from '../api/use-register';
import { canRegister } from '../can-register';
import { ThirdPartyLogin } from '../components/third-party-login';

interface RegisterFormValues {
  username?: string;
  password?: string;
  password2?: string;
  email?: string;
  verification_code?: string;
}

/** /register (spec 000 §2 and §5): username and password, plus a mailed code when e-mail verification is on. */
export default function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const status = usePublicStatus();
  const brand = useBrand();
  const register = useRegister();
  const humanCheck = useTurnstile(status);
  const [form] = Form.useForm<RegisterFormValues>();
  const email = Form.useWatch('email', form) ?? '';
  const verifyEmail = Boolean(status.email_verification);

  useEffect(() => {
    // The invite code travels with the visitor until they register, whichever page they land on first.
    const aff = params.get('aff');
    if (aff) writeStorage(STORAGE_KEYS.aff, aff);
  }, [params]);

  if (!canRegister(status)) {
    return (
      <FormCard title={t('account.register_title')}>
        <Result
          status="info"
          title={t('errors:register_disabled')}
          extra={
            <Link to="/login">
              <Button type="primary">{t('account.back_to_login')}</Button>
            </Link>
          }
        />
      </FormCard>
    );
  }

  const onFinish = (values: RegisterFormValues) => {
    const body = {
      username: (values.username ?? '').trim(),
      password: values.password ?? '',
      password2: values.password2 ?? '',
      email: verifyEmail ? (values.email ?? '').trim() : '',
      verification_code: verifyEmail ? (values.verification_code ?? '').trim() : '',
      aff_code: readStorage(STORAGE_KEYS.aff) ?? '',
    };
    // The same rules the server applies, so the words match whichever side says no first.
    const parsed = registerSchema.safeParse(body);
    if (!parsed.success) {
      notify.error(t(`errors:${parsed.error.issues[0]?.message ?? 'invalid_params'}`));
      return;
    }
    if (verifyEmail && (!body.email || !body.verification_code)) {
      notify.error(t('errors:register_email_required'));
      return;
    }
    if (humanCheck.enabled && !humanCheck.token) {
      notify.info(t('errors:turnstile_pending'));
      return;
    }
    register.mutate(
      { body, turnstile: humanCheck.token },
      {
        onSuccess: (envelope) => {
          notify.success(envelope.message || t('account.register_success'));
          navigate('/login');
        },
        onSettled: humanCheck.renew,
      },
    );
  };

  const passwordRegister = status.password_register_enabled !== false;

  return (
    <FormCard title={t('account.register_title')} subtitle={t('account.register_subtitle', { name: brand.name })}>
      {passwordRegister ? (
        <Form<RegisterFormValues>
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={onFinish}
          data-testid="register-form"
        >
          <Form.Item name="username" label={t('account.username')}>
            <Input
              prefix={<UserOutlined />}
              placeholder={t('account.username_placeholder')}
              autoComplete="username"
              size="large"
            />
          </Form.Item>
          <Form.Item name="password" label={t('account.password')}>
            <Input.Password
              prefix={<LockOutlined />}
              placeholder={t('account.password_placeholder', { min: PASSWORD_MIN, max: PASSWORD_MAX })}
              autoComplete="new-password"
              size="large"
            />
          </Form.Item>
          <Form.Item name="password2" label={t('account.password2')}>
            <Input.Password
              prefix={<LockOutlined />}
              placeholder={t('account.password2_placeholder')}
              autoComplete="new-password"
              size="large"
            />
          </Form.Item>
          {verifyEmail && (
            <>
              <Form.Item name="email" label={t('account.email')}>
                <Input
                  prefix={<MailOutlined />}
                  type="email"
                  placeholder={t('account.email_placeholder')}
                  autoComplete="email"
                  size="large"
                />
              </Form.Item>
              <Form.Item name="verification_code" label={t('account.code')}>
                <VerificationCodeInput email={email} humanCheck={humanCheck} />
              </Form.Item>
            </>
          )}
          {humanCheck.widget}
          <Button type="primary" htmlType="submit" size="large" block loading={register.isPending}>
            {t('account.register_submit')}
          </Button>
        </Form>
      ) : (
        <Alert type="info" showIcon title={t('errors:password_register_disabled')} />
      )}
      <ThirdPartyLogin status={status} />
      <Typography.Paragraph type="secondary" className="login-footer" style={{ margin: '16px 0 0' }}>
        {t('account.have_account')} <Link to="/login">{t('account.to_login')}</Link>
      </Typography.Paragraph>
    </FormCard>
  );
}
