import type { CatalogueModelPage, CatalogueVendor, CatalogueVendorPage } from '@gateway/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const catalogueQueryKey = ['catalogue'] as const;

export interface ModelListQuery {
  page: number;
  pageSize: number;
  keyword: string;
  /** 0: every vendor. */
  vendorId: number;
}

/** One page of catalogue models; a keyword or vendor switches to the search endpoint, as in the family. */
export function useCatalogueModels(query: ModelListQuery) {
  const keyword = query.keyword.trim();
  const filtered = keyword !== '' || query.vendorId > 0;
  return useQuery({
    queryKey: [...catalogueQueryKey, 'models', { ...query, keyword }],
    queryFn: ({ signal }) =>
      api.get<CatalogueModelPage>(filtered ? '/api/models/search' : '/api/models/', {
        query: {
          p: query.page,
          page_size: query.pageSize,
          keyword: keyword || undefined,
          vendor: query.vendorId || undefined,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** Models some channel serves that the catalogue does not know. */
export function useMissingModels() {
  return useQuery({
    queryKey: [...catalogueQueryKey, 'missing'],
    queryFn: ({ signal }) => api.get<string[]>('/api/models/missing', { signal }),
  });
}

/** Every vendor (a catalogue has tens, not thousands): for the vendor list, pickers and names in the model list. */
export function useVendors() {
  return useQuery({
    queryKey: [...catalogueQueryKey, 'vendors'],
    queryFn: async ({ signal }): Promise<CatalogueVendor[]> =>
      (await api.get<CatalogueVendorPage>('/api/vendors/', { query: { p: 1, page_size: 100 }, signal })).items,
  });
}
