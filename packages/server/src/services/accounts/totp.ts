import { randomInt } from 'node:crypto';
import { BACKUP_CODE_COUNT, TOTP_DIGITS, TOTP_PERIOD_SECONDS } from '@gateway/shared';
import { Secret, TOTP } from 'otpauth';

// RFC 6238 through otpauth, with the family's parameters (SHA-1, six digits, 30 seconds), so authenticator apps set
// up against the family's server keep working here.

function totpOf(secret: string, issuer = '', label = ''): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

/** A new 160-bit secret in base32 (RFC 4226's recommended length). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator reads from the QR code. */
export function totpUri(secret: string, username: string, issuer: string): string {
  return totpOf(secret, issuer, username).toString();
}

/**
 * The start (unix seconds) of the 30-second step whose code `code` is, allowing one step of clock drift either way;
 * null when it is none of them.
 */
export function matchedTotpStep(secret: string, code: string, nowMs: number): number | null {
  const delta = totpOf(secret).validate({ token: code, timestamp: nowMs, window: 1 });
  if (delta === null) return null;
  return (Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS) + delta) * TOTP_PERIOD_SECONDS;
}

const BACKUP_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Ten codes written XXXX-XXXX (the family's form), from a uniform CSPRNG draw per character. */
export function newBackupCodes(): string[] {
  return Array.from({ length: BACKUP_CODE_COUNT }, () => {
    const chars = Array.from({ length: 8 }, () => BACKUP_ALPHABET[randomInt(BACKUP_ALPHABET.length)]).join('');
    return `${chars.slice(0, 4)}-${chars.slice(4)}`;
  });
}
