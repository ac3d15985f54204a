// User answers of the admin API (`/api/user/…`).
import type { LimitColumns } from '../limits/index.js';
import type { SelfUser } from '../status.js';

/** A row of `GET /api/user/` and `/api/user/search` (admin view: no password hash, no access token). */
export interface AdminUserView {
  id: number;
  username: string;
  display_name: string;
  /** 1 ordinary, 10 admin, 100 super admin. */
  role: number;
  /** 1 enabled, 2 banned, 3 disabled-type. */
  status: number;
  email: string;
  group: string;
  quota: number;
  used_quota: number;
  request_count: number;
  aff_count: number;
  aff_quota: number;
  aff_history_quota: number;
  /** 0 when nobody invited this user. */
  inviter_id: number;
  github_id: string;
  oidc_id: string;
  wechat_id: string;
  telegram_id: string;
  linux_do_id: string;
  remark: string;
  created_at: number;
  last_login_at: number;
  deleted_at?: number | null;
  /** The family's soft-delete marker: non-null means deregistered. */
  DeletedAt?: number | string | null;
}

/** `GET /api/user/{id}`: the record behind the edit drawer. */
export type UserDetailView = SelfUser & Partial<LimitColumns>;

/** What `POST /api/user/manage` answers; the table adopts it in place. */
export interface ManageUserView {
  status: number;
  role: number;
  quota: number;
}
