import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN } from './auth.js';

export const USERNAME_MAX = 20;
export const DISPLAY_NAME_MAX = 20;

const username = z
  .string({ error: 'user_username_password_required' })
  .trim()
  .min(1, 'user_username_password_required')
  .max(USERNAME_MAX, 'user_username_too_long');
const password = z
  .string({ error: 'user_username_password_required' })
  .min(PASSWORD_MIN, 'password_too_short')
  .max(PASSWORD_MAX, 'password_too_long');
const displayName = z.string().trim().max(DISPLAY_NAME_MAX, 'user_display_name_too_long').default('');

/** Admin "add user" (spec 000: username and password required). */
export const userCreateSchema = z.object({
  username,
  password: z.string({ error: 'user_username_password_required' }).min(1, 'user_username_password_required').pipe(password),
  display_name: displayName,
});

/** Admin "edit user": password optional (empty = unchanged), quota as an integer. */
export const userUpdateSchema = z.object({
  id: z.number().int().positive(),
  username,
  display_name: displayName,
  password: z.union([z.literal(''), password]).optional(),
  group: z.string().trim().min(1).max(64).default('default'),
  quota: z.number({ error: 'user_quota_invalid' }).int('user_quota_invalid').min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER),
  email: z.union([z.literal(''), z.email('user_email_invalid')]).optional(),
  remark: z.string().max(255).optional(),
});

export const USER_ACTIONS = ['promote', 'demote', 'disable', 'enable', 'delete', 'add_quota'] as const;
export const userManageSchema = z.object({
  id: z.number().int().positive(),
  action: z.enum(USER_ACTIONS, { error: 'invalid_params' }),
  /** add_quota: the amount to add (negative subtracts). */
  value: z.number().int('user_quota_invalid').optional(),
});
