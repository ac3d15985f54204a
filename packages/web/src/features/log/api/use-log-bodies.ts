import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { logsQueryKey } from './use-logs';

/** A log row's kept request and response bodies (admins); null when none were kept for that call. */
export interface LogBodies {
  request_body: string;
  response_body: string;
  created_at: number;
}

/** Loaded only once the admin asks (`enabled`): bodies can be large, and most rows have none. */
export function useLogBodies(logId: number, enabled: boolean) {
  return useQuery({
    queryKey: [...logsQueryKey, 'bodies', logId],
    queryFn: ({ signal }) => api.get<LogBodies | null>(`/api/log/${logId}/bodies`, { signal }),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
