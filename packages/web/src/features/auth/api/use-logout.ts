import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api } from '../../../lib/api';
import { clearStoredUser } from '../../../lib/session';

export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => api.get<unknown>('/api/user/logout'),
    // Signed out locally even when the server call fails: the visitor asked to leave. This runs in the hook, not
    // per call, because clearing the user unmounts the menu that started the logout.
    onSettled: () => {
      navigate('/login');
      clearStoredUser();
      queryClient.removeQueries({ queryKey: ['user'] });
    },
    meta: { silentError: true },
  });
}
