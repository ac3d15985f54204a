import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN } from './auth.js';
import { USERNAME_MAX } from './user.js';

/** Length of the e-mailed verification code (digits, so it is easy to type from a phone). */
export const VERIFICATION_CODE_LENGTH = 6;
/** How long an e-mailed code or reset link stays valid. */
export const VERIFICATION_VALID_MINUTES = 10;
/** The console waits this long before it offers to send another code or reset mail (spec 000 §9, 001). */
export const RESEND_COOLDOWN_SECONDS = 30;
/** Length of the password a reset hands out. */
export const RESET_PASSWORD_LENGTH = 12;

const email = z.string().trim().toLowerCase().max(255).pipe(z.email('user_email_invalid'));

/** An optional text: absent, null and "" all mean none (read as ""). */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => value ?? '');

/**
 * `POST /api/user/register` (spec 000 §5 and §7). `password2` is checked when sent (the console always sends it;
 * scripts of the family may not); the e-mail and code only matter when e-mail verification is on.
 */
export const registerSchema = z
  .object({
    username: z
      .string({ error: 'username_password_required' })
      .trim()
      .min(1, 'username_password_required')
      .max(USERNAME_MAX, 'user_username_too_long'),
    password: z
      .string({ error: 'username_password_required' })
      .min(1, 'username_password_required')
      .min(PASSWORD_MIN, 'password_too_short')
      .max(PASSWORD_MAX, 'password_too_long'),
    password2: z.string().nullish(),
    // The family's console sends null for what was not filled in (no invitation in its local storage): none.
    email: optionalText(255),
    verification_code: optionalText(64),
    aff_code: optionalText(32),
  })
  .refine((value) => value.password2 == null || value.password2 === value.password, {
    message: 'passwords_do_not_match',
    path: ['password2'],
  });
export type RegisterInput = z.infer<typeof registerSchema>;

/** The e-mail of `GET /api/verification` and `GET /api/reset_password`. */
export const emailQuerySchema = z.object({
  email: z.string({ error: 'email_required' }).trim().min(1, 'email_required').pipe(email),
});

/** `GET /api/oauth/email/bind` (spec 000 §5: both required). */
export const emailBindSchema = z.object({
  email: z.string({ error: 'email_bind_fields_required' }).trim().min(1, 'email_bind_fields_required').pipe(email),
  code: z.string({ error: 'email_bind_fields_required' }).trim().min(1, 'email_bind_fields_required').max(64),
});

/** `POST /api/user/reset`: the pair from the mailed link. */
export const passwordResetConfirmSchema = z.object({
  email: z.string({ error: 'reset_link_invalid' }).trim().min(1, 'reset_link_invalid').pipe(email),
  token: z.string({ error: 'reset_link_invalid' }).trim().min(1, 'reset_link_invalid').max(128),
});
