import { z } from 'zod';

/** Shared by the login form and `POST /api/user/login`; message keys are translated on each side. */
export const loginSchema = z.object({
  username: z.string().trim().min(1, 'username_password_required').max(255),
  password: z.string().min(1, 'username_password_required').max(255),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const SETUP_USERNAME_MAX = 12;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 20;

const modeFields = {
  SelfUseModeEnabled: z.boolean().default(false),
  DemoSiteEnabled: z.boolean().default(false),
};

const noModeConflict = (value: { SelfUseModeEnabled: boolean; DemoSiteEnabled: boolean }) =>
  !(value.SelfUseModeEnabled && value.DemoSiteEnabled);

/** Setup when the root account already exists: only the usage mode is chosen. */
export const setupModeSchema = z
  .object(modeFields)
  .refine(noModeConflict, { message: 'setup_mode_conflict', path: ['DemoSiteEnabled'] });

export const setupSchema = z
  .object({
    username: z.string().trim().min(1, 'setup_username_required').max(SETUP_USERNAME_MAX, 'setup_username_too_long'),
    password: z.string().min(PASSWORD_MIN, 'password_too_short').max(PASSWORD_MAX, 'password_too_long'),
    confirmPassword: z.string(),
    ...modeFields,
  })
  .refine((value) => value.password === value.confirmPassword, {
    message: 'passwords_do_not_match',
    path: ['confirmPassword'],
  })
  .refine(noModeConflict, { message: 'setup_mode_conflict', path: ['DemoSiteEnabled'] });
export type SetupInput = z.infer<typeof setupSchema>;
