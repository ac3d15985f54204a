import type { SessionUser, TwoFactorLoginChallenge } from '@gateway/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { clearSessionExpired, setStoredUser } from '../../../lib/session';
import type { LoginCredentials } from '../types';

interface LoginVariables extends LoginCredentials {
  /** The human-check result; empty when the check is off. */
  turnstile?: string;
}

/** The password step's answer: the signed-in user, or (with two-factor sign-in) the ask for a code. */
export type LoginAnswer = SessionUser | TwoFactorLoginChallenge;

export function needsSecondStep(answer: LoginAnswer): answer is TwoFactorLoginChallenge {
  return 'require_2fa' in answer && answer.require_2fa === true;
}

/** Every way of signing in leaves the same trace once the session exists. */
function signedIn(user: SessionUser): void {
  clearSessionExpired();
  setStoredUser(user);
}

export function useLogin() {
  return useMutation({
    mutationFn: ({ turnstile = '', ...credentials }: LoginVariables) =>
      api.post<LoginAnswer>('/api/user/login', credentials, { query: { turnstile } }),
    onSuccess: (answer) => {
      if (!needsSecondStep(answer)) signedIn(answer);
    },
  });
}

/** The second step (`POST /api/user/login/2fa`): a TOTP or backup code; only now is there a session. */
export function useLoginSecondStep() {
  return useMutation({
    mutationFn: (input: { code: string; flow_token: string }) => api.post<SessionUser>('/api/user/login/2fa', input),
    onSuccess: signedIn,
  });
}
