import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { CreatedToken, TokenPayload } from '../types';
import { tokensQueryKey } from './use-tokens';

/** `count` > 1 creates a batch in one transaction; the server suffixes the extra names. */
export function useCreateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TokenPayload & { count: number }) => api.post<CreatedToken[]>('/api/token/', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensQueryKey }),
  });
}
