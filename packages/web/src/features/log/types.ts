// The answer shapes are declared once in @gateway/shared; this console keeps its own names for them.
import type {
  LogView as LogItem,
  LogOtherView as LogOther,
  LogStatView as LogStat,
  UserDetailView,
} from '@gateway/shared';

export type { LogItem, LogOther, LogStat };

/** The applied filters; empty strings and 0 mean "not filtered". */
export interface LogFilters {
  type: number;
  tokenName: string;
  modelName: string;
  group: string;
  /** Unix seconds, 0 for open-ended. */
  start: number;
  end: number;
  /** Admins only. */
  username: string;
  channel: string;
}

export interface LogListQuery extends LogFilters {
  page: number;
  pageSize: number;
}

/** The fields the log's user dialog reads of `GET /api/user/{id}` (an admin's view of one user). */
export type LogUserDetail = Pick<
  UserDetailView,
  'id' | 'username' | 'display_name' | 'role' | 'status' | 'group' | 'quota' | 'used_quota' | 'request_count' | 'email'
>;
