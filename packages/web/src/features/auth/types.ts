export type { SelfUser } from '@gateway/shared';

export interface LoginCredentials {
  username: string;
  password: string;
}
