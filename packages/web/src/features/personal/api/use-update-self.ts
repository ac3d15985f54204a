import { useMutation, useQueryClient } from '@tanstack/react-query';
import { selfQueryKey } from '../../../hooks/use-self';
import { api } from '../../../lib/api';
import { getStoredUser, setStoredUser } from '../../../lib/session';

export type SelfUpdate = { display_name: string } | { original_password: string; password: string };

/** `PUT /api/user/self`: a new display name, or a new password with the original one. */
export function useUpdateSelf() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SelfUpdate) => api.put<unknown>('/api/user/self', input),
    onSuccess: (_data, input) => {
      // The top bar shows the stored user's name, so a new display name goes there too.
      const stored = getStoredUser();
      if ('display_name' in input && stored) setStoredUser({ ...stored, display_name: input.display_name });
      return queryClient.invalidateQueries({ queryKey: selfQueryKey });
    },
  });
}
