import type { Page } from '@gateway/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { AdminUser, ManageAction, ManageResult } from '../types';
import { userListQueryKey, usersQueryKey } from './use-users';

export interface ManageVariables {
  id: number;
  action: ManageAction;
  /** add_quota only: the amount to add (negative subtracts). */
  value?: number;
}

/**
 * Promote, demote, disable, enable, deregister or add quota. The answer carries the user's new status, role and
 * quota, which the listed row adopts in place (spec 000 §4) instead of reloading the page.
 */
export function useManageUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: ManageVariables) => api.post<ManageResult>('/api/user/manage', variables),
    onSuccess: (result, { id, action }) => {
      const deletedAt = action === 'delete' ? Math.floor(Date.now() / 1000) : undefined;
      queryClient.setQueriesData<Page<AdminUser>>({ queryKey: userListQueryKey }, (page) =>
        page
          ? {
              ...page,
              items: page.items.map((user) =>
                user.id === id
                  ? {
                      ...user,
                      ...(result ?? {}),
                      ...(deletedAt !== undefined ? { DeletedAt: deletedAt, deleted_at: deletedAt } : {}),
                    }
                  : user,
              ),
            }
          : page,
      );
      // The one-user record (edit drawer) is re-read next time it opens.
      void queryClient.invalidateQueries({ queryKey: [...usersQueryKey, 'one', id] });
    },
  });
}
