import type { LimitColumns, SelfUser } from '@gateway/shared';

/** A row of `GET /api/user/` and `/api/user/search` (admin view: no password hash, no access token). */
export interface AdminUser {
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
export type UserDetail = SelfUser & Partial<LimitColumns>;

export interface UserListQuery {
  page: number;
  pageSize: number;
  keyword: string;
  group: string;
}

export type ManageAction = 'promote' | 'demote' | 'disable' | 'enable' | 'delete' | 'add_quota';

/** What `POST /api/user/manage` answers; the table adopts it in place. */
export interface ManageResult {
  status: number;
  role: number;
  quota: number;
}

export interface UserCreateInput {
  username: string;
  display_name: string;
  password: string;
}

/** `PUT /api/user/`: `password` '' keeps the current one; `quota` is an integer. */
export interface UserUpdateInput {
  id: number;
  username: string;
  display_name: string;
  password: string;
  group: string;
  quota: number;
  email?: string;
  remark?: string;
  rpm_limit?: number | null;
  tpm_limit?: number | null;
  concurrency_limit?: number | null;
}

export function isDeregistered(user: Pick<AdminUser, 'DeletedAt' | 'deleted_at'>): boolean {
  return (user.DeletedAt ?? user.deleted_at ?? null) !== null;
}
