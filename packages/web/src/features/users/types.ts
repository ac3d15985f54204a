// The answer shapes are declared once in @gateway/shared; this console keeps its own names for them.
import type {
  AdminUserView as AdminUser,
  ManageUserView as ManageResult,
  UserDetailView as UserDetail,
} from '@gateway/shared';

export type { AdminUser, ManageResult, UserDetail };

export interface UserListQuery {
  page: number;
  pageSize: number;
  keyword: string;
  group: string;
}

export type ManageAction = 'promote' | 'demote' | 'disable' | 'enable' | 'delete' | 'add_quota';

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
