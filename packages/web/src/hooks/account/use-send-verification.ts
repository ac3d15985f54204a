import { useMutation } from '@tanstack/react-query';
import { requestEnvelope } from '../../lib/api';

/** `GET /api/verification`: mails a code to prove an address (registration, binding). */
export function useSendVerification() {
  return useMutation({
    mutationFn: ({ email, turnstile }: { email: string; turnstile: string }) =>
      requestEnvelope<unknown>('GET', '/api/verification', { query: { email, turnstile } }),
  });
}
