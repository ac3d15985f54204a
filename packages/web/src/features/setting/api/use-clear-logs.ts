import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { logsQueryKey } from '../../../lib/query-keys';

/** Deletes usage logs older than a moment (`DELETE /api/log/?target_timestamp=` in seconds) → how many. */
export function useClearLogs() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (targetTimestamp: number) => {
      const data = await api.delete<number | { count: number }>('/api/log/', {
        query: { target_timestamp: targetTimestamp },
      });
      // The family answers a bare number; spec 000 §7 words it as data.count. Either works.
      return typeof data === 'number' ? data : (data?.count ?? 0);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: logsQueryKey }),
  });
}
