import type { PriceChange, PriceSyncPreview, PriceSyncSource } from '@gateway/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, requestEnvelope } from '../../../lib/api';
import { optionsQueryKey } from './use-options';

/** `POST /api/ratio_sync/preview`: the source read on the server and compared with this site's ratios. */
export function usePriceSyncPreview() {
  return useMutation({
    meta: { silentError: true },
    mutationFn: (source: PriceSyncSource) => api.post<PriceSyncPreview>('/api/ratio_sync/preview', { source }),
  });
}

/** `POST /api/ratio_sync/apply`: only the picked rows; the ratio editors re-read the options afterwards. */
export function usePriceSyncApply() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silentError: true },
    mutationFn: async (changes: PriceChange[]) =>
      (
        await requestEnvelope<{ applied: number }>('POST', '/api/ratio_sync/apply', {
          body: { changes: changes.map(({ model, field, after }) => ({ model, field, after })) },
        })
      ).message,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: optionsQueryKey }),
  });
}
