import type { SessionUser } from '@gateway/shared';

/** `GET /api/user/self`: the session user plus balance and account details. */
export interface SelfUser extends SessionUser {
  email?: string;
  quota: number;
  used_quota: number;
  request_count: number;
  aff_code?: string;
  setting?: string;
}

export interface LoginCredentials {
  username: string;
  password: string;
}
