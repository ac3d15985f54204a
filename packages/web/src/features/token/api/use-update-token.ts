import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { Token, TokenPayload } from '../types';
import { tokensQueryKey } from './use-tokens';

export function useUpdateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TokenPayload & { id: number }) => api.put<Token>('/api/token/', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensQueryKey }),
  });
}
