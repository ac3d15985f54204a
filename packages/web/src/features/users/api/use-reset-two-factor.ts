import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** An admin's reset of a user's two-factor sign-in (`DELETE /api/user/:id/2fa`); the server audits it. */
export function useResetTwoFactor() {
  return useMutation({
    mutationFn: (id: number) => api.delete<undefined>(`/api/user/${id}/2fa`),
  });
}
