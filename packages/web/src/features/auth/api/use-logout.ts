import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { clearStoredUser } from '../../../lib/session';

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.get<unknown>('/api/user/logout'),
    // Signed out locally even when the server call fails: the visitor asked to leave.
    onSettled: () => {
      clearStoredUser();
      queryClient.removeQueries({ queryKey: ['user'] });
    },
    meta: { silentError: true },
  });
}
