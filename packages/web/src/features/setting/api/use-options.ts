import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { OptionMap } from '../option-form';

export const optionsQueryKey = ['options'] as const;

/** Every option as key → stored string (`GET /api/option/`); secrets arrive empty. */
export function useOptions() {
  return useQuery({
    queryKey: optionsQueryKey,
    queryFn: async ({ signal }) => {
      const list = await api.get<Array<{ key: string; value: string }>>('/api/option/', { signal });
      return Object.fromEntries(list.map(({ key, value }) => [key, value])) as OptionMap;
    },
    staleTime: 0,
  });
}
