import type { SessionUser } from '@gateway/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { clearSessionExpired, setStoredUser } from '../../../lib/session';
import type { LoginCredentials } from '../types';

interface LoginVariables extends LoginCredentials {
  /** The human-check result; empty when the check is off. */
  turnstile?: string;
}

export function useLogin() {
  return useMutation({
    mutationFn: ({ turnstile = '', ...credentials }: LoginVariables) =>
      api.post<SessionUser>('/api/user/login', credentials, { query: { turnstile } }),
    // Stored here, not in the page, so every way of signing in leaves the same trace.
    onSuccess: (user) => {
      clearSessionExpired();
      setStoredUser(user);
    },
  });
}
