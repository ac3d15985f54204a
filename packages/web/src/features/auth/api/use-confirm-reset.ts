import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** `POST /api/user/reset`: spends the mailed link and returns the new password. */
export function useConfirmReset() {
  return useMutation({
    mutationFn: (input: { email: string; token: string }) => api.post<string>('/api/user/reset', input),
    // The page shows the refusal next to a way out (ask for a new link).
    meta: { silentError: true },
  });
}
