import dayjs from 'dayjs';
import type { ListFilters } from '../../components/list/record-view';

/** Tag colour and label key of each async-task status (spec 001 §4); '' means still submitting. */
export const TASK_STATUSES: Record<string, { color: string; labelKey: string }> = {
  NOT_START: { color: 'default', labelKey: 'task.status_not_start' },
  SUBMITTED: { color: 'blue', labelKey: 'task.status_submitted' },
  QUEUED: { color: 'geekblue', labelKey: 'task.status_queued' },
  IN_PROGRESS: { color: 'processing', labelKey: 'task.status_in_progress' },
  SUCCESS: { color: 'success', labelKey: 'task.status_success' },
  FAILURE: { color: 'error', labelKey: 'task.status_failure' },
  UNKNOWN: { color: 'default', labelKey: 'task.status_unknown' },
  '': { color: 'default', labelKey: 'task.status_submitting' },
};

export function taskStatusInfo(status: string) {
  return TASK_STATUSES[status] ?? TASK_STATUSES.UNKNOWN!;
}

/** Spec 001 §9: the task log starts at the start of today; the end stays an hour ahead so new tasks show. */
export function defaultTaskFilters(now = dayjs()): ListFilters {
  return { channel: '', id: '', start: now.startOf('day'), end: now.add(1, 'hour') };
}
