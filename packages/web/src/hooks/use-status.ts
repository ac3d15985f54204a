import type { PublicStatus } from '@gateway/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../lib/api';
import { applyBranding, persistStatus, readCachedStatus } from '../lib/status-cache';

export const statusQueryKey = ['status'] as const;

async function fetchStatus(): Promise<PublicStatus> {
  const status = await api.get<PublicStatus>('/api/status');
  persistStatus(status);
  applyBranding(status);
  return status;
}

/** The live query; the setup gate needs to know whether an answer has arrived, not just a value. */
export function useStatusQuery() {
  return useQuery({
    queryKey: statusQueryKey,
    queryFn: fetchStatus,
    staleTime: 60_000,
    // The setup gate shows this failure itself (it has to decide what to render anyway).
    meta: { silentError: true },
  });
}

/** The status to paint with: the fresh answer, else the copy stored by the last visit, else nothing yet. */
export function usePublicStatus(): Partial<PublicStatus> {
  const { data } = useStatusQuery();
  return data ?? readCachedStatus() ?? {};
}
