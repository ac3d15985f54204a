import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestEnvelope } from '../../../lib/api';
import { optionsQueryKey } from './use-options';

/** `POST /api/option/rest_model_ratio`: the per-model pricing maps back to the built-in defaults. */
export function useResetModelRatio() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await requestEnvelope<unknown>('POST', '/api/option/rest_model_ratio')).message,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: optionsQueryKey }),
  });
}
