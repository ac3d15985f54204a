import type { CatalogueModel, CatalogueModelInput, CatalogueVendor, CatalogueVendorInput } from '@gateway/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { catalogueQueryKey } from './catalogue-queries';

/** Every catalogue change refreshes the lists, the missing models and the vendors' model counts. */
function useCatalogueMutation<I, O>(run: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: catalogueQueryKey }),
  });
}

export type ModelDraft = Omit<Partial<CatalogueModelInput>, 'model_name'> & { model_name: string };

export const useSaveModel = () =>
  useCatalogueMutation((input: ModelDraft) =>
    input.id ? api.put<CatalogueModel>('/api/models/', input) : api.post<CatalogueModel>('/api/models/', input),
  );

export const useSetModelShown = () =>
  useCatalogueMutation(({ id, shown }: { id: number; shown: boolean }) =>
    api.put<unknown>('/api/models/', { id, status: shown ? 1 : 0 }, { query: { status_only: 'true' } }),
  );

export const useDeleteModel = () => useCatalogueMutation((id: number) => api.delete<unknown>(`/api/models/${id}`));

export const useAddMissingModels = () =>
  useCatalogueMutation((names: string[]) => api.post<{ added: number }>('/api/models/missing', { model_names: names }));

export type VendorDraft = Omit<Partial<CatalogueVendorInput>, 'name'> & { name: string };

export const useSaveVendor = () =>
  useCatalogueMutation((input: VendorDraft) =>
    input.id ? api.put<CatalogueVendor>('/api/vendors/', input) : api.post<CatalogueVendor>('/api/vendors/', input),
  );

export const useDeleteVendor = () => useCatalogueMutation((id: number) => api.delete<unknown>(`/api/vendors/${id}`));
