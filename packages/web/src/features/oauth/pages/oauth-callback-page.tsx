import { Alert, Button, Result, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { FormCard } from '../../../components/form-card';
import '../../../components/oauth/oauth.css';
import { useFinishSignIn } from '../../../hooks/oauth/use-finish-sign-in';
import { usePublicStatus } from '../../../hooks/use-status';
import { notify } from '../../../lib/notify';
import { isRedirectProvider, PROVIDER_NAMES } from '../../../lib/oauth-urls';
import { pathAfterFailure, useOAuthCallback } from '../api/use-oauth-callback';

/** Seconds the failure stays on screen before the page moves on by itself. */
const FAILURE_REDIRECT_SECONDS = 5;

/**
 * `/oauth/github`, `/oauth/oidc`, `/oauth/linuxdo` and `/oauth/<slug>` of a custom provider: where the provider sends the browser back (spec 001, "Third-party
 * callback"). A spinner while the server exchanges the code (with retries on transport errors); a sign-in lands on
 * /token, a binding on the personal page; a failure is shown, then the page moves on.
 */
export default function OAuthCallbackPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const slug = pathname.split('/').filter(Boolean).at(-1) ?? '';
  const status = usePublicStatus();
  // A built-in provider by its fixed name, a custom one (the root added it) by its slug and display name.
  const custom = status.custom_oauth_providers?.find((item) => item.slug === slug);
  const provider = isRedirectProvider(slug) ? slug : slug || 'oidc';
  const name = isRedirectProvider(provider) ? PROVIDER_NAMES[provider] : (custom?.name ?? slug);
  const outcome = useOAuthCallback(provider, params);
  const finishSignIn = useFinishSignIn();
  const [secondsLeft, setSecondsLeft] = useState(FAILURE_REDIRECT_SECONDS);
  const failurePath = pathAfterFailure();

  useEffect(() => {
    if (outcome.phase === 'signed-in') finishSignIn(outcome.user);
    if (outcome.phase === 'bound') {
      notify.success(t('oauth.bound', { provider: name }));
      navigate('/personal', { replace: true });
    }
    if (outcome.phase === 'failed') notify.error(outcome.message);
  }, [outcome, finishSignIn, navigate, name, t]);

  useEffect(() => {
    if (outcome.phase !== 'failed') return;
    if (secondsLeft <= 0) {
      navigate(failurePath, { replace: true });
      return;
    }
    const timer = window.setTimeout(() => setSecondsLeft((value) => value - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [outcome.phase, secondsLeft, navigate, failurePath]);

  if (outcome.phase === 'failed') {
    return (
      <FormCard title={t('oauth.callback_title', { provider: name })}>
        <Result
          status="error"
          title={t('oauth.failed_title', { provider: name })}
          subTitle={<span data-testid="oauth-callback-error">{outcome.message}</span>}
          style={{ padding: '8px 0 0' }}
          extra={
            <Button type="primary" onClick={() => navigate(failurePath, { replace: true })}>
              {failurePath === '/login' ? t('oauth.back_to_login') : t('oauth.back_to_personal')}
            </Button>
          }
        />
        <Typography.Paragraph type="secondary" style={{ textAlign: 'center', margin: '12px 0 0' }}>
          {t('oauth.redirect_in', { count: secondsLeft })}
        </Typography.Paragraph>
      </FormCard>
    );
  }

  return (
    <FormCard title={t('oauth.callback_title', { provider: name })}>
      <div className="oauth-callback-progress" data-testid="oauth-callback-progress">
        <Spin size="large" />
        <Typography.Text strong>{t('oauth.processing', { provider: name })}</Typography.Text>
        <Typography.Text type="secondary">{t('oauth.please_wait')}</Typography.Text>
        {outcome.phase === 'working' && outcome.retry > 0 && (
          <Alert type="warning" showIcon title={t('oauth.retrying', { count: outcome.retry })} />
        )}
      </div>
    </FormCard>
  );
}
