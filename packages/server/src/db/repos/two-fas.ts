import type { Db, Dialect } from '../connection.js';
import { dateTimeText, unixSeconds } from '../family/readings.js';

/** A user's two-factor row, times in unix seconds. */
export interface TwoFactorRecord {
  userId: number;
  /** Sealed (or a family database's plaintext) TOTP secret. */
  secret: string;
  enabled: boolean;
  failedAttempts: number;
  lockedUntil: number | null;
  lastUsedAt: number | null;
}

/**
 * gorm's time.Time columns: SQLite keeps text (written as the family's driver writes it); pg and mysql2 take a Date
 * and hand one back (mysql2 both ways in the process's time zone, so a value reads back as written).
 */
function timeValue(seconds: number, dialect: Dialect): string | Date {
  return dialect === 'sqlite' ? dateTimeText(seconds, dialect) : new Date(seconds * 1000);
}

/** The family's `two_fas` and `two_fa_backup_codes`; rows the family soft-deleted are not read. */
export function createTwoFasRepo(db: Db) {
  const q = db.kysely;
  const at = (seconds: number) => timeValue(seconds, db.dialect);
  const live = () => q.selectFrom('two_fas').where('deleted_at', 'is', null);
  const liveCodes = () => q.selectFrom('two_fa_backup_codes').where('deleted_at', 'is', null);

  return {
    async find(userId: number): Promise<TwoFactorRecord | undefined> {
      const row = await live().selectAll().where('user_id', '=', userId).executeTakeFirst();
      if (!row) return undefined;
      return {
        userId: row.user_id,
        secret: row.secret,
        enabled: Number(row.is_enabled) === 1,
        failedAttempts: Number(row.failed_attempts ?? 0),
        lockedUntil: row.locked_until == null ? null : unixSeconds(row.locked_until),
        lastUsedAt: row.last_used_at == null ? null : unixSeconds(row.last_used_at),
      };
    },

    /**
     * A new, not yet enabled setup with its backup codes, replacing a pending one. An enabled row stays: the
     * unique user_id then refuses the insert, so two setups racing an enable cannot replace a secret in use.
     */
    async startSetup(userId: number, secret: string, codeHashes: string[], now: number): Promise<void> {
      await q.transaction().execute(async (trx) => {
        await trx.deleteFrom('two_fas').where('user_id', '=', userId).where('is_enabled', '=', 0).execute();
        const enabled = await trx.selectFrom('two_fas').select('id').where('user_id', '=', userId).executeTakeFirst();
        if (enabled) throw new Error('two-factor sign-in is already enabled');
        await trx.deleteFrom('two_fa_backup_codes').where('user_id', '=', userId).execute();
        await trx
          .insertInto('two_fas')
          .values({
            user_id: userId,
            secret,
            is_enabled: 0,
            failed_attempts: 0,
            created_at: at(now),
            updated_at: at(now),
          })
          .execute();
        await insertCodes(trx, userId, codeHashes, at(now));
      });
    },

    /** Turns a pending setup on; false when there was none (or it was enabled meanwhile). */
    async enable(userId: number, usedAt: number, now: number): Promise<boolean> {
      const result = await q
        .updateTable('two_fas')
        .set({ is_enabled: 1, failed_attempts: 0, locked_until: null, last_used_at: at(usedAt), updated_at: at(now) })
        .where('user_id', '=', userId)
        .where('is_enabled', '=', 0)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Removes the user's 2FA and all its backup codes (hard, as the family does); false when there was none. */
    async remove(userId: number): Promise<boolean> {
      return q.transaction().execute(async (trx) => {
        await trx.deleteFrom('two_fa_backup_codes').where('user_id', '=', userId).execute();
        const result = await trx.deleteFrom('two_fas').where('user_id', '=', userId).executeTakeFirst();
        return Number(result.numDeletedRows) > 0;
      });
    },

    /**
     * Takes one try of the allowed `max` before a code is checked, as one conditional update: of any number of
     * concurrent guesses, only as many as tries are left get to check theirs. False when none is left.
     */
    async takeAttempt(userId: number, max: number): Promise<boolean> {
      const result = await q
        .updateTable('two_fas')
        .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
        .where('user_id', '=', userId)
        .where('failed_attempts', '<', max)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Starts the lockout once the tries are used up (only the first failure past the limit sets it). */
    async lockIfExhausted(userId: number, max: number, until: number): Promise<void> {
      await q
        .updateTable('two_fas')
        .set({ locked_until: at(until) })
        .where('user_id', '=', userId)
        .where('failed_attempts', '>=', max)
        .where('locked_until', 'is', null)
        .execute();
    },

    /** Gives the tries back after a lockout ended; conditional on the count seen, so two readers reset once. */
    async unlock(userId: number, seenAttempts: number): Promise<void> {
      await q
        .updateTable('two_fas')
        .set({ failed_attempts: 0, locked_until: null })
        .where('user_id', '=', userId)
        .where('failed_attempts', '=', seenAttempts)
        .execute();
    },

    /**
     * A right code: the tries are given back. For a TOTP code `totpStep` is the start of its 30-second step, kept as
     * last_used_at; only a later step is accepted next (one code, one use), so the update is conditional on it.
     */
    async succeed(userId: number, now: number, totpStep?: number): Promise<boolean> {
      let update = q
        .updateTable('two_fas')
        .set({
          failed_attempts: 0,
          locked_until: null,
          updated_at: at(now),
          ...(totpStep === undefined ? {} : { last_used_at: at(totpStep) }),
        })
        .where('user_id', '=', userId);
      if (totpStep !== undefined) {
        update = update.where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at(totpStep))]));
      }
      const result = await update.executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async unusedCodes(userId: number): Promise<Array<{ id: number; codeHash: string }>> {
      const rows = await liveCodes()
        .select(['id', 'code_hash'])
        .where('user_id', '=', userId)
        .where('is_used', '=', 0)
        .orderBy('id')
        .execute();
      return rows.map((row) => ({ id: row.id, codeHash: row.code_hash }));
    },

    async countUnusedCodes(userId: number): Promise<number> {
      const row = await liveCodes()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('is_used', '=', 0)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    /** Spends a backup code; false when another request spent it first. */
    async useCode(id: number, now: number): Promise<boolean> {
      const result = await q
        .updateTable('two_fa_backup_codes')
        .set({ is_used: 1, used_at: at(now) })
        .where('id', '=', id)
        .where('is_used', '=', 0)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** The user's backup codes replaced by new ones, in one transaction. */
    async replaceCodes(userId: number, codeHashes: string[], now: number): Promise<void> {
      await q.transaction().execute(async (trx) => {
        await trx.deleteFrom('two_fa_backup_codes').where('user_id', '=', userId).execute();
        await insertCodes(trx, userId, codeHashes, at(now));
      });
    },

    /** Live users, and those with 2FA enabled (the family's stats). */
    async stats(): Promise<{ totalUsers: number; enabledUsers: number }> {
      const users = await q
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      const enabled = await live()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('is_enabled', '=', 1)
        .executeTakeFirst();
      return { totalUsers: Number(users?.n ?? 0), enabledUsers: Number(enabled?.n ?? 0) };
    },
  };
}

async function insertCodes(
  trx: Db['kysely'],
  userId: number,
  codeHashes: string[],
  createdAt: string | Date,
): Promise<void> {
  if (codeHashes.length === 0) return;
  await trx
    .insertInto('two_fa_backup_codes')
    .values(codeHashes.map((code_hash) => ({ user_id: userId, code_hash, is_used: 0, created_at: createdAt })))
    .execute();
}
