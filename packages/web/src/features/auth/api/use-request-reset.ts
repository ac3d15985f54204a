import { useMutation } from '@tanstack/react-query';
import { requestEnvelope } from '../../../lib/api';

/** `GET /api/reset_password`: mails a reset link (the same answer whether or not the address has an account). */
export function useRequestReset() {
  return useMutation({
    mutationFn: ({ email, turnstile }: { email: string; turnstile: string }) =>
      requestEnvelope<unknown>('GET', '/api/reset_password', { query: { email, turnstile } }),
  });
}
