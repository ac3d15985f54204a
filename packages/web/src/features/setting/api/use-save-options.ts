import { useMutation, useQueryClient } from '@tanstack/react-query';
import { statusQueryKey } from '../../../hooks/use-status';
import { api } from '../../../lib/api';
import type { SaveResult } from '../option-form';
import { optionsQueryKey } from './use-options';

/**
 * Saves options one `PUT /api/option/` per key (the family's protocol), in the given order, and reports each
 * result instead of stopping at the first refusal: the section shows what was saved and what was not.
 * Afterwards the options and the public status are re-read, so the header, sidebar and footer follow at once.
 */
export function useSaveOptions() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silentError: true },
    mutationFn: async (changes: Array<[string, string]>): Promise<SaveResult[]> => {
      const results: SaveResult[] = [];
      for (const [key, value] of changes) {
        try {
          await api.put('/api/option/', { key, value });
          results.push({ key, ok: true, message: '' });
        } catch (error) {
          results.push({ key, ok: false, message: error instanceof Error ? error.message : String(error) });
        }
      }
      return results;
    },
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: optionsQueryKey }),
        queryClient.invalidateQueries({ queryKey: statusQueryKey }),
      ]);
    },
  });
}
