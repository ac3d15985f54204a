import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { Redemption, RedemptionInput } from '../types';
import { redemptionsQueryKey } from './use-redemptions';

/** Only unused codes can be changed; the server says so otherwise (shown by the query client). */
export function useUpdateRedemption() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RedemptionInput & { id: number }) => api.put<Redemption>('/api/redemption/', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: redemptionsQueryKey }),
  });
}
