import { z } from 'zod';
import { limitFieldsSchema } from '../limits/fields.js';
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
  password: z
    .string({ error: 'user_username_password_required' })
    .min(1, 'user_username_password_required')
    .pipe(password),
  display_name: displayName,
});

/** Admin "edit user": password optional (empty = unchanged), quota as an integer. */
export const userUpdateSchema = z.object({
  id: z.number().int().positive(),
  username,
  display_name: displayName,
  password: z.union([z.literal(''), password]).optional(),
  group: z.string().trim().min(1).max(64).default('default'),
  quota: z
    .number({ error: 'user_quota_invalid' })
    .int('user_quota_invalid')
    .min(-Number.MAX_SAFE_INTEGER)
    .max(Number.MAX_SAFE_INTEGER),
  email: z.union([z.literal(''), z.email('user_email_invalid')]).optional(),
  remark: z.string().max(255).optional(),
  ...limitFieldsSchema.shape,
});

export const USER_ACTIONS = ['promote', 'demote', 'disable', 'enable', 'delete', 'add_quota'] as const;
export const userManageSchema = z.object({
  id: z.number().int().positive(),
  action: z.enum(USER_ACTIONS, { error: 'invalid_params' }),
  /** add_quota: the amount to add (negative subtracts). */
  value: z.number().int('user_quota_invalid').optional(),
});

/** `PUT /api/user/self`: profile fields, or a new password with the original one. Nothing else is read. */
export const selfUpdateSchema = z
  .object({
    display_name: z.string().trim().max(DISPLAY_NAME_MAX, 'user_display_name_too_long').optional(),
    original_password: z.string().optional(),
    password: z.union([z.literal(''), password]).optional(),
  })
  .refine((value) => !value.password || (value.original_password ?? '') !== '', {
    message: 'self_original_password_required',
  })
  .refine((value) => !value.password || value.password !== value.original_password, {
    message: 'self_password_same',
  });

export const NOTIFY_TYPES = ['email', 'webhook'] as const;
export const QUOTA_WARNING_PRESETS = [100000, 500000, 1000000, 5000000] as const;

/** `PUT /api/user/setting` (spec 000 "User setting"). */
export const userSettingSchema = z
  .object({
    notify_type: z.enum(NOTIFY_TYPES).default('email'),
    quota_warning_threshold: z
      .number()
      .int('setting_threshold_invalid')
      .min(0, 'setting_threshold_invalid')
      .default(100000),
    webhook_url: z.string().trim().max(1024).default(''),
    webhook_secret: z.string().max(256).default(''),
    notification_email: z.union([z.literal(''), z.email('user_email_invalid')]).default(''),
    accept_unset_model_ratio_model: z.boolean().default(false),
  })
  .refine((value) => value.notify_type !== 'webhook' || /^https:\/\/[^\s]+$/i.test(value.webhook_url), {
    message: 'setting_webhook_https',
  });
export type UserSettingInput = z.infer<typeof userSettingSchema>;

export const affTransferSchema = z.object({
  quota: z.number({ error: 'aff_transfer_invalid' }).int('aff_transfer_invalid').positive('aff_transfer_invalid'),
});
