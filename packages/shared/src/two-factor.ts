import { z } from 'zod';

// Two-factor sign-in with TOTP (RFC 6238), in the family's shapes (new-api's controller/twofa.go): codes of six digits
// every 30 seconds (SHA-1), and one-time backup codes written XXXX-XXXX.

export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** Backup codes made at setup and at each regeneration (the family makes 4; we follow the common ten). */
export const BACKUP_CODE_COUNT = 10;
/** Wrong codes in a row before the account's second step is locked, and for how long (the family's values). */
export const TWO_FA_MAX_FAILED_ATTEMPTS = 5;
export const TWO_FA_LOCKOUT_SECONDS = 300;
/** How long the second step of a sign-in may wait after the password was accepted. */
export const TWO_FA_LOGIN_FLOW_SECONDS = 300;

const BACKUP_CODE = /^[A-Z0-9]{8}$/;

/** A backup code as stored and compared: upper case, dash after the fourth character; null when it cannot be one. */
export function normalizeBackupCode(code: string): string | null {
  const clean = code.replace(/[\s-]/g, '').toUpperCase();
  return BACKUP_CODE.test(clean) ? `${clean.slice(0, 4)}-${clean.slice(4)}` : null;
}

/** A TOTP code with its spaces removed, or null when it is not six digits. */
export function cleanTotpCode(code: string): string | null {
  const clean = code.replace(/\s/g, '');
  return /^\d{6}$/.test(clean) ? clean : null;
}

/** The body of enable, disable, backup-code regeneration and the sign-in's second step. */
export const twoFactorCodeSchema = z.object({
  code: z.string().trim().min(1, 'two_fa_code_required').max(64, 'two_fa_code_invalid'),
  flow_token: z.string().max(512).optional(),
});
export type TwoFactorCodeInput = z.infer<typeof twoFactorCodeSchema>;

/** `GET /api/user/2fa/status` (the family's fields, plus whether an admin must set it up). */
export interface TwoFactorStatusView {
  enabled: boolean;
  locked: boolean;
  /** Present while enabled. */
  backup_codes_remaining?: number;
  /** Root requires two-factor sign-in for admins and this admin has not enabled it yet. */
  setup_required: boolean;
}

/** `POST /api/user/2fa/setup`: shown once; the secret is stored encrypted and never answered again. */
export interface TwoFactorSetupView {
  secret: string;
  /** The otpauth:// URI an authenticator app reads from the QR code. */
  qr_code_data: string;
  backup_codes: string[];
}

/** `POST /api/user/2fa/backup_codes`. */
export interface TwoFactorBackupCodesView {
  backup_codes: string[];
}

/** `POST /api/user/login` for an account with two-factor sign-in: the password was right, a code must follow. */
export interface TwoFactorLoginChallenge {
  require_2fa: true;
  flow_token: string;
  /** Unix seconds. */
  expires_at: number;
}

/** `GET /api/user/2fa/stats` (admin). */
export interface TwoFactorStatsView {
  total_users: number;
  enabled_users: number;
  /** e.g. "12.5%", as the family writes it. */
  enabled_rate: string;
}
