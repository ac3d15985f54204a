import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export function useAbout() {
  return useQuery({
    queryKey: ['content', 'about'],
    queryFn: () => api.get<string>('/api/about'),
    staleTime: 5 * 60_000,
  });
}
