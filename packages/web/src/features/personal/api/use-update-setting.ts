import { useMutation, useQueryClient } from '@tanstack/react-query';
import { selfQueryKey } from '../../../hooks/use-self';
import { api } from '../../../lib/api';
import type { UserSetting } from '../user-setting';

/** Saves the whole notification and price setting at once (`PUT /api/user/setting`). */
export function useUpdateSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (setting: UserSetting) => api.put<unknown>('/api/user/setting', setting),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: selfQueryKey }),
  });
}
