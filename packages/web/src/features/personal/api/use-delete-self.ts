import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api } from '../../../lib/api';
import { clearStoredUser } from '../../../lib/session';

/**
 * Deletes the caller's own account. The server has already ended every session, so this signs out locally the
 * way logout does (stored user cleared, user queries dropped) without calling logout again.
 */
export function useDeleteSelf() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => api.delete<unknown>('/api/user/self'),
    onSuccess: () => {
      navigate('/login');
      clearStoredUser();
      queryClient.removeQueries({ queryKey: ['user'] });
    },
  });
}
