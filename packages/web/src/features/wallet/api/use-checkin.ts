import type { CheckinResultView, CheckinStatusView } from '@gateway/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { selfQueryKey } from '../../../hooks/use-self';
import { api, requestEnvelope } from '../../../lib/api';

export const checkinKey = ['user', 'checkin'] as const;

/** The caller's check-ins of a month (YYYY-MM; the server's current month when not given) and the settings. */
export function useCheckinStatus(month: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: [...checkinKey, month ?? 'current'],
    queryFn: () => api.get<CheckinStatusView>('/api/user/checkin', { query: month ? { month } : undefined }),
    enabled,
    // Paging months keeps the last month on screen until the next one arrives.
    placeholderData: keepPreviousData,
  });
}

/** Checks in for today; the balance and the calendar are refetched. The answer's message is the success text. */
export function useCheckin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (turnstile: string) =>
      requestEnvelope<CheckinResultView>('POST', '/api/user/checkin', {
        query: turnstile ? { turnstile } : undefined,
        body: {},
      }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: selfQueryKey }),
        queryClient.invalidateQueries({ queryKey: checkinKey }),
      ]),
  });
}
