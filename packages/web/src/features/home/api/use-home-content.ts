import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** Admin-written markdown/HTML, or an https address to embed, or empty for the built-in landing page. */
export function useHomeContent() {
  return useQuery({
    queryKey: ['content', 'home'],
    queryFn: () => api.get<string>('/api/home_page_content'),
    staleTime: 5 * 60_000,
  });
}
