import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../lib/api';
import { authorizeRequestPath, type RedirectTarget } from '../../lib/oauth-urls';
import { readStorage } from '../../lib/storage';
import { STORAGE_KEYS } from '../../lib/storage-keys';

export interface OAuthStart {
  provider: RedirectTarget;
  /** `bind` ties the result to the signed-in account; `login` signs in (or registers). */
  intent: 'login' | 'bind';
}

/** Asks for the provider's authorisation URL, then leaves for it; the invite code rides along for registration. */
export function useOAuthStart() {
  const start = useMutation({
    mutationFn: ({ provider, intent }: OAuthStart) =>
      api.get<{ url: string }>(authorizeRequestPath(provider), {
        query: { intent, aff: intent === 'login' ? (readStorage(STORAGE_KEYS.aff) ?? undefined) : undefined },
      }),
    onSuccess: ({ url }) => window.location.assign(url),
  });
  const { reset } = start;
  useEffect(() => {
    // Coming back with the browser's back button restores this page as it was left: busy. Make it usable again.
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) reset();
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, [reset]);
  return start;
}
