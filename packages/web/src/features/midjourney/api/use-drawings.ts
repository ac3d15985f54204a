import { usePagedList } from '../../../components/list/paged-list';
import type { ListFilters } from '../../../components/list/record-view';
import { listQuery } from '../../../components/list/record-view';
import { api } from '../../../lib/api';
import type { DrawingItem } from '../types';

/** Drawing tasks page by page: everyone's for an admin (`/api/mj/`), the caller's own otherwise. Times in ms. */
export function useDrawings(filters: ListFilters, admin: boolean, pageSize: number) {
  const query = listQuery(filters, 'mj_id', 'ms', admin);
  return usePagedList<DrawingItem>(
    ['drawings', admin, query],
    pageSize,
    (page, signal) =>
      api.get<DrawingItem[]>(admin ? '/api/mj/' : '/api/mj/self', {
        query: { p: page, page_size: pageSize, ...query },
        signal,
      }),
    (drawing) => !['SUCCESS', 'FAILURE', 'CANCEL'].includes(drawing.status),
  );
}
