import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import {
  adminPlansQueryKey,
  type PlanEntry,
  planOf,
  type SubscriptionEntry,
  subscriptionQueryKey,
} from '../../../lib/subscriptions';
import { usersQueryKey } from './use-users';

const userSubscriptionsKey = (userId: number) => [...subscriptionQueryKey, 'user', userId] as const;

/**
 * Every subscription of one user, any status (`GET /api/subscription/admin/users/:id/subscriptions`): the family
 * answers a list; later versions wrap it as `{subscriptions}`, which is read too.
 */
export function useUserSubscriptions(userId: number) {
  return useQuery({
    queryKey: userSubscriptionsKey(userId),
    queryFn: async ({ signal }) => {
      const data = await api.get<SubscriptionEntry[] | { subscriptions?: SubscriptionEntry[] } | null>(
        `/api/subscription/admin/users/${userId}/subscriptions`,
        { signal },
      );
      return Array.isArray(data) ? data : (data?.subscriptions ?? []);
    },
    meta: { silentError: true },
  });
}

/** Every plan, for granting one (disabled ones included: an admin may grant a plan that is not on sale). */
export function usePlansToGrant(enabled: boolean) {
  return useQuery({
    queryKey: adminPlansQueryKey,
    queryFn: async ({ signal }) =>
      ((await api.get<PlanEntry[] | null>('/api/subscription/admin/plans', { signal })) ?? []).map(planOf),
    enabled,
  });
}

export type SubscriptionAction =
  | { kind: 'grant'; planId: number }
  | { kind: 'reset'; planId: number }
  | { kind: 'invalidate'; subscriptionId: number }
  | { kind: 'delete'; subscriptionId: number };

/** Grants a plan (no payment), starts a plan's period again, ends a subscription now, or removes it. */
export function useSubscriptionAction(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: SubscriptionAction) => {
      const base = '/api/subscription/admin';
      switch (action.kind) {
        case 'grant':
          return api.post<unknown>(`${base}/users/${userId}/subscriptions`, { plan_id: action.planId });
        case 'reset':
          return api.post<unknown>(`${base}/users/${userId}/subscriptions/reset`, { plan_id: action.planId });
        case 'invalidate':
          return api.post<unknown>(`${base}/user_subscriptions/${action.subscriptionId}/invalidate`);
        case 'delete':
          return api.delete<unknown>(`${base}/user_subscriptions/${action.subscriptionId}`);
      }
    },
    // The user's group may have moved with the plan: the user record is read again too.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: subscriptionQueryKey }),
        queryClient.invalidateQueries({ queryKey: usersQueryKey }),
      ]),
  });
}
