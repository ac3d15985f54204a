import { Secret, TOTP } from 'otpauth';

/**
 * A real TOTP code of a base32 secret (SHA-1, six digits, 30 s), `steps` periods from now. The server accepts each
 * code once and only a later period after it, so consecutive sign-ins use the next period (accepted as one period
 * of clock drift).
 */
export function totpCode(secret: string, steps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}
