import type { SelfUser } from '@gateway/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../lib/api';
import { useSessionUser } from '../lib/session';

export const selfQueryKey = ['user', 'self'] as const;

/** The signed-in user's live record (balance, usage); idle while nobody is signed in. */
export function useSelf() {
  const user = useSessionUser();
  return useQuery({
    queryKey: [...selfQueryKey, user?.id],
    queryFn: () => api.get<SelfUser>('/api/user/self'),
    enabled: user !== null,
  });
}
