import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { adminPlansQueryKey, type PlanEntry, planOf } from '../../../lib/subscriptions';

/** Every plan, enabled or not, in the family's order (`GET /api/subscription/admin/plans`). */
export function useAdminPlans() {
  return useQuery({
    queryKey: adminPlansQueryKey,
    queryFn: async ({ signal }) =>
      ((await api.get<PlanEntry[] | null>('/api/subscription/admin/plans', { signal })) ?? []).map(planOf),
  });
}
