import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { parseGroupRatios } from '../../../lib/user-view';

interface OptionEntry {
  key: string;
  value: string;
}

/**
 * Group price ratios, for the group tag colours. No public call lists them, so they come from the option list
 * (`GroupRatio`); when that is refused or unreadable the tags simply stay neutral, without an error toast.
 */
export function useGroupRatios() {
  return useQuery({
    queryKey: ['options', 'GroupRatio'],
    queryFn: async () => {
      const options = await api.get<OptionEntry[]>('/api/option/');
      return parseGroupRatios(options.find((option) => option.key === 'GroupRatio')?.value);
    },
    staleTime: 5 * 60_000,
    meta: { silentError: true },
  });
}
