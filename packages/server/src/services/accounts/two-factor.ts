import {
  cleanTotpCode,
  normalizeBackupCode,
  Role,
  TWO_FA_LOCKOUT_SECONDS,
  TWO_FA_MAX_FAILED_ATTEMPTS,
  type TwoFactorSetupView,
  type TwoFactorStatusView,
} from '@gateway/shared';
import { hashPassword, verifyPassword } from '../../auth/password.js';
import type { AppContext } from '../../context.js';
import type { TwoFactorRecord } from '../../db/repos/two-fas.js';
import type { UserRow } from '../../db/schema.js';
import { nowSeconds } from '../../db/sql-helpers.js';
import { ApiFailure } from '../../http/envelope.js';
import { SecretBox } from '../security/secret-box.js';
import { matchedTotpStep, newBackupCodes, newTotpSecret, totpUri } from './totp.js';

/** Which kind of code was accepted. */
export type SecondFactor = 'totp' | 'backup';

/**
 * Two-factor sign-in: setup, enabling, the codes of each later step, and the account's lockout after
 * TWO_FA_MAX_FAILED_ATTEMPTS wrong codes in a row. Secrets are sealed with the secret box (CRYPTO_SECRET); backup
 * codes are bcrypt hashes of their normal form, as the family stores them.
 */
export function twoFactor(ctx: AppContext) {
  const repo = ctx.repos.twoFas;
  const box = new SecretBox(ctx.config.cryptoSecret);

  /** Refuses while locked; otherwise takes one of the tries left (giving them back once a lockout is over). */
  async function admitAttempt(record: TwoFactorRecord, now: number): Promise<void> {
    if (record.lockedUntil !== null && record.lockedUntil > now) throw locked(record.lockedUntil - now);
    if (record.failedAttempts >= TWO_FA_MAX_FAILED_ATTEMPTS) await repo.unlock(record.userId, record.failedAttempts);
    if (!(await repo.takeAttempt(record.userId, TWO_FA_MAX_FAILED_ATTEMPTS))) throw locked(TWO_FA_LOCKOUT_SECONDS);
  }

  async function acceptBackupCode(userId: number, code: string, now: number): Promise<boolean> {
    const normal = normalizeBackupCode(code);
    if (!normal) return false;
    for (const stored of await repo.unusedCodes(userId)) {
      if (!(await verifyPassword(normal, stored.codeHash))) continue;
      // Spent by a concurrent request meanwhile: the code is used up either way.
      return repo.useCode(stored.id, now);
    }
    return false;
  }

  /**
   * Checks one code against the account's lockout. A TOTP code is accepted once (only a step later than the last
   * accepted one), a backup code once. A wrong code only counts a failure; it changes nothing else.
   */
  async function verify(record: TwoFactorRecord, code: string, allowBackup: boolean): Promise<SecondFactor> {
    const now = nowSeconds();
    await admitAttempt(record, now);
    const totp = cleanTotpCode(code);
    if (totp) {
      const step = matchedTotpStep(box.open(record.secret), totp, Date.now());
      const fresh = step !== null && (record.lastUsedAt === null || step > record.lastUsedAt);
      if (fresh && (await repo.succeed(record.userId, now, step))) return 'totp';
    }
    if (allowBackup && (await acceptBackupCode(record.userId, code, now))) {
      await repo.succeed(record.userId, now);
      return 'backup';
    }
    await repo.lockIfExhausted(record.userId, TWO_FA_MAX_FAILED_ATTEMPTS, now + TWO_FA_LOCKOUT_SECONDS);
    throw new ApiFailure('two_fa_code_invalid');
  }

  async function enabledRecord(userId: number): Promise<TwoFactorRecord> {
    const record = await repo.find(userId);
    if (!record?.enabled) throw new ApiFailure('two_fa_not_enabled');
    return record;
  }

  const hashCodes = (codes: string[]) => Promise.all(codes.map((code) => hashPassword(code)));

  return {
    async isEnabled(userId: number): Promise<boolean> {
      return (await repo.find(userId))?.enabled === true;
    },

    async status(user: UserRow): Promise<TwoFactorStatusView> {
      const record = await repo.find(user.id);
      const enabled = record?.enabled === true;
      const status: TwoFactorStatusView = {
        enabled,
        locked: record?.lockedUntil != null && record.lockedUntil > nowSeconds(),
        setup_required: !enabled && mustUseTwoFactor(ctx, user),
      };
      if (enabled) status.backup_codes_remaining = await repo.countUnusedCodes(user.id);
      return status;
    },

    /** A new secret and backup codes, pending until a code from the secret enables them; replaces a pending one. */
    async startSetup(user: UserRow): Promise<TwoFactorSetupView> {
      if (await this.isEnabled(user.id)) throw new ApiFailure('two_fa_already_enabled');
      const secret = newTotpSecret();
      const backupCodes = newBackupCodes();
      try {
        await repo.startSetup(user.id, box.seal(secret), await hashCodes(backupCodes), nowSeconds());
      } catch (error) {
        if (await this.isEnabled(user.id)) throw new ApiFailure('two_fa_already_enabled');
        throw error;
      }
      const issuer = ctx.options.get('SystemName') || 'AI Gateway';
      return { secret, qr_code_data: totpUri(secret, user.username, issuer), backup_codes: backupCodes };
    },

    async enable(user: UserRow, code: string): Promise<void> {
      const record = await repo.find(user.id);
      if (!record) throw new ApiFailure('two_fa_setup_first');
      if (record.enabled) throw new ApiFailure('two_fa_already_enabled');
      await verify(record, code, false);
      const step = (await repo.find(user.id))?.lastUsedAt ?? nowSeconds();
      if (!(await repo.enable(user.id, step, nowSeconds()))) throw new ApiFailure('two_fa_already_enabled');
    },

    /** Turning it off takes a TOTP code or a backup code, as signing in does. */
    async disable(user: UserRow, code: string): Promise<void> {
      await verify(await enabledRecord(user.id), code, true);
      await repo.remove(user.id);
    },

    /** New backup codes (the old ones stop working) for a current TOTP code. */
    async regenerateBackupCodes(user: UserRow, code: string): Promise<string[]> {
      await verify(await enabledRecord(user.id), code, false);
      const codes = newBackupCodes();
      await repo.replaceCodes(user.id, await hashCodes(codes), nowSeconds());
      return codes;
    },

    /** The second step of a sign-in. */
    async verifyLogin(userId: number, code: string): Promise<SecondFactor> {
      return verify(await enabledRecord(userId), code, true);
    },

    /** An admin's reset: 2FA and its backup codes removed; false when the user had none. */
    async reset(userId: number): Promise<boolean> {
      return repo.remove(userId);
    },
  };
}

export type TwoFactor = ReturnType<typeof twoFactor>;

/** Whether root's AdminTwoFARequired applies to this account (admins and root). */
export function mustUseTwoFactor(ctx: AppContext, user: UserRow): boolean {
  return user.role >= Role.Admin && ctx.options.bool('AdminTwoFARequired');
}

function locked(seconds: number): ApiFailure {
  const wait = Math.max(1, Math.ceil(seconds));
  return new ApiFailure('two_fa_locked', { seconds: wait }, 429, wait);
}
