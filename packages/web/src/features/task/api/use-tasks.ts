import { usePagedList } from '../../../components/list/paged-list';
import { type ListFilters, listQuery } from '../../../components/list/record-view';
import { api } from '../../../lib/api';
import type { TaskItem } from '../types';

/** Async tasks page by page: everyone's for an admin (`/api/task/`), the caller's own otherwise. */
export function useTasks(filters: ListFilters, admin: boolean, pageSize: number) {
  const query = listQuery(filters, 'task_id', 's', admin);
  return usePagedList<TaskItem>(
    ['tasks', admin, query],
    pageSize,
    (page, signal) =>
      api.get<TaskItem[]>(admin ? '/api/task/' : '/api/task/self', {
        query: { p: page, page_size: pageSize, ...query },
        signal,
      }),
    (task) => task.status !== 'SUCCESS' && task.status !== 'FAILURE',
  );
}
