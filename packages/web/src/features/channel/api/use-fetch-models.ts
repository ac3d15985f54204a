import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export type FetchModelsSource = { id: number } | { base_url: string; type: number; key: string };

/** The upstream's model list: of a saved channel (by id), or of the unsaved form (address, type and key). */
export function useFetchModels() {
  return useMutation({
    mutationFn: (source: FetchModelsSource) =>
      'id' in source
        ? api.get<string[]>(`/api/channel/fetch_models/${source.id}`)
        : api.post<string[]>('/api/channel/fetch_models', source),
  });
}
