import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { subscriptionQueryKey } from '../../../lib/subscriptions';
import type { PlanInput } from '../types';

/** Creates a plan (no id) or replaces one; every plan list is read again (the wallet's too). */
export function useSavePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, plan }: { id?: number; plan: PlanInput }) =>
      id === undefined
        ? api.post<unknown>('/api/subscription/admin/plans', { plan })
        : api.put<unknown>(`/api/subscription/admin/plans/${id}`, { plan }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subscriptionQueryKey }),
  });
}

/** Puts a plan on sale or takes it off (`PATCH …/plans/:id` with `{enabled}`). */
export function usePlanStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, enabled }: { id: number; enabled: boolean }) =>
      api.patch<unknown>(`/api/subscription/admin/plans/${id}`, { enabled }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subscriptionQueryKey }),
  });
}

export function useDeletePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<unknown>(`/api/subscription/admin/plans/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subscriptionQueryKey }),
  });
}
