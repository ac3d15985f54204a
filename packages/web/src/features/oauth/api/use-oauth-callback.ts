import type { SessionUser } from '@gateway/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { selfQueryKey } from '../../../hooks/use-self';
import { requestEnvelope } from '../../../lib/api';
import { callbackRequestPath, type RedirectTarget } from '../../../lib/oauth-urls';
import { getStoredUser } from '../../../lib/session';
import { exchangeWithRetries } from '../exchange-with-retries';

export type CallbackOutcome =
  | { phase: 'working'; retry: number }
  | { phase: 'signed-in'; user: SessionUser }
  | { phase: 'bound' }
  | { phase: 'failed'; message: string };

/**
 * Hands the provider's `code` and `state` to the server once per page visit and reports how it went. The server
 * answers a binding with the message "bind" and a sign-in with the user.
 */
export function useOAuthCallback(provider: RedirectTarget, params: URLSearchParams): CallbackOutcome {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<CallbackOutcome>({ phase: 'working', retry: 0 });
  const started = useRef(false);
  const code = params.get('code') ?? '';
  const state = params.get('state') ?? '';
  const providerError = params.get('error_description') || params.get('error') || '';

  useEffect(() => {
    // Once: a code is good for one exchange, and React may run effects twice in development.
    if (started.current) return;
    started.current = true;
    if (providerError) {
      setOutcome({ phase: 'failed', message: t('oauth.provider_refused', { reason: providerError }) });
      return;
    }
    if (!code) {
      setOutcome({ phase: 'failed', message: t('oauth.no_code') });
      return;
    }
    exchangeWithRetries(
      () => requestEnvelope<SessionUser>('GET', callbackRequestPath(provider), { query: { code, state } }),
      (retry) => setOutcome({ phase: 'working', retry }),
    ).then(
      (envelope) => {
        if (envelope.message === 'bind') {
          void queryClient.invalidateQueries({ queryKey: selfQueryKey });
          setOutcome({ phase: 'bound' });
        } else if (envelope.data) {
          setOutcome({ phase: 'signed-in', user: envelope.data });
        } else {
          setOutcome({ phase: 'failed', message: t('oauth.bad_answer') });
        }
      },
      (error: unknown) =>
        setOutcome({ phase: 'failed', message: error instanceof Error ? error.message : String(error) }),
    );
  }, [code, state, provider, providerError, queryClient, t]);

  return outcome;
}

/** Where a failed callback sends the visitor: their settings when signed in (a binding), else the login page. */
export function pathAfterFailure(): string {
  return getStoredUser() ? '/personal' : '/login';
}
