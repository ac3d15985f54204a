// The answer shapes are declared once in @gateway/shared; this console keeps its own names for them.
import type { LogView as LogItem, LogOtherView as LogOther, LogStatView as LogStat } from '@gateway/shared';

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

/** A user as `GET /api/user/{id}` returns it to an admin. */
export interface LogUserDetail {
  id: number;
  username: string;
  display_name: string;
  role: number;
  status: number;
  group: string;
  quota: number;
  used_quota: number;
  request_count: number;
  email: string;
}
