import { MailOutlined } from '@ant-design/icons';
import { emailQuerySchema, RESEND_COOLDOWN_SECONDS } from '@gateway/shared';
import { Alert, Button, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useTurnstile } from '../../../components/account/turnstile-widget';
import { FormCard } from '../../../components/form-card';
import { useCountdown } from '../../../hooks/use-countdown';
import { usePublicStatus } from '../../../hooks/use-status';
import { notify } from '../../../lib/notify';
import { useRequestReset } from '../api/use-request-reset';

/** /reset (spec 001 "Password reset"): asks for a reset link by e-mail, then waits 30 seconds before another. */
export default function ResetPage() {
  const { t } = useTranslation();
  const status = usePublicStatus();
  const humanCheck = useTurnstile(status);
  const request = useRequestReset();
  const lockout = useCountdown(RESEND_COOLDOWN_SECONDS);
  const [sentTo, setSentTo] = useState('');

  const onFinish = (values: { email?: string }) => {
    const parsed = emailQuerySchema.safeParse({ email: values.email ?? '' });
    if (!parsed.success) {
      notify.error(t(`errors:${parsed.error.issues[0]?.message ?? 'invalid_params'}`));
      return;
    }
    if (humanCheck.enabled && !humanCheck.token) {
      notify.info(t('errors:turnstile_pending'));
      return;
    }
    request.mutate(
      { email: parsed.data.email, turnstile: humanCheck.token },
      {
        onSuccess: (envelope) => {
          notify.success(envelope.message || t('account.reset_sent'));
          setSentTo(parsed.data.email);
          lockout.start();
        },
        onSettled: humanCheck.renew,
      },
    );
  };

  return (
    <FormCard title={t('account.reset_title')} subtitle={t('account.reset_subtitle')}>
      {sentTo && (
        <Alert
          type="success"
          showIcon
          title={t('account.reset_sent_title')}
          description={t('account.reset_sent_body', { email: sentTo })}
          style={{ marginBottom: 16 }}
          data-testid="reset-sent"
        />
      )}
      <Form layout="vertical" requiredMark={false} onFinish={onFinish} data-testid="reset-form">
        <Form.Item name="email" label={t('account.email')}>
          <Input
            prefix={<MailOutlined />}
            type="email"
            placeholder={t('account.email_placeholder')}
            autoComplete="email"
            size="large"
          />
        </Form.Item>
        {humanCheck.widget}
        <Button
          type="primary"
          htmlType="submit"
          size="large"
          block
          loading={request.isPending}
          disabled={lockout.running}
        >
          {lockout.running ? t('account.retry_in', { seconds: lockout.remaining }) : t('account.reset_submit')}
        </Button>
      </Form>
      <Typography.Paragraph type="secondary" className="login-footer" style={{ margin: '16px 0 0' }}>
        {t('account.remembered')} <Link to="/login">{t('account.to_login')}</Link>
      </Typography.Paragraph>
    </FormCard>
  );
}
