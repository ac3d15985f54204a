import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestEnvelope } from '../../lib/api';
import { selfQueryKey } from '../use-self';

/** `GET /api/oauth/email/bind` (spec 000 §7): binds the proven address to the signed-in user. */
export function useBindEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ email, code }: { email: string; code: string }) =>
      requestEnvelope<unknown>('GET', '/api/oauth/email/bind', { query: { email, code } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: selfQueryKey }),
  });
}
