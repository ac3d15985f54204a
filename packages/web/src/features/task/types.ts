import type { Dayjs } from 'dayjs';

/** An async (Suno) task as `GET /api/task/self` (own) or `GET /api/task/` (admin) returns it. Times in seconds. */
export interface TaskItem {
  id: number;
  created_at: number;
  updated_at: number;
  task_id: string;
  platform: string;
  user_id: number;
  group: string;
  quota: number;
  action: string;
  /** NOT_START, SUBMITTED, QUEUED, IN_PROGRESS, SUCCESS, FAILURE, UNKNOWN, or '' while submitting. */
  status: string;
  fail_reason: string | null;
  submit_time: number;
  start_time: number;
  finish_time: number;
  /** Usually "NN%"; shown as text when it is not a number. */
  progress: string;
  properties: unknown;
  data: unknown;
  /** Admins only. */
  channel_id?: number;
}

/** The filters the drawing and task logs share (spec 001 §2); the channel only for admins. */
export interface ListFilters {
  channel: string;
  id: string;
  start: Dayjs | null;
  end: Dayjs | null;
}
