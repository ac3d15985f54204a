import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { RedemptionInput } from '../types';
import { redemptionsQueryKey } from './use-redemptions';

/** Creates `count` codes in one transaction; answers their keys, which are offered for copying right away. */
export function useCreateRedemptions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RedemptionInput & { count: number }) => api.post<string[]>('/api/redemption/', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: redemptionsQueryKey }),
  });
}
