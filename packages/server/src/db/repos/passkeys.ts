import type { Selectable } from 'kysely';
import type { Db, Dialect } from '../connection.js';
import type { PasskeyCredentialsTable } from '../schema.js';

export type PasskeyRow = Selectable<PasskeyCredentialsTable>;

/** What a passkey is, stored or about to be. */
interface PasskeyFields {
  userId: number;
  /** Standard base64, as the family stores it. */
  credentialId: string;
  publicKey: string;
  signCount: number;
  transports: string[];
  attachment: string;
  backupEligible: boolean;
  backupState: boolean;
}

/** A passkey as the services see it: flags as booleans and times as Dates whatever the dialect stored. */
export interface StoredPasskey extends PasskeyFields {
  id: number;
  name: string | null;
  createdAt: Date | null;
  lastUsedAt: Date | null;
}

export interface NewPasskey extends PasskeyFields {
  attestationType: string;
  aaguid: string;
  userVerified: boolean;
  name: string;
}

/** SQLite keeps gorm's text form of a time; the other two take a Date. */
function timeValue(dialect: Dialect, date: Date): Date | string {
  if (dialect !== 'sqlite') return date;
  return `${date.toISOString().replace('T', ' ').replace('Z', '')}+00:00`;
}

function flagValue(dialect: Dialect, value: boolean): boolean | number {
  return dialect === 'postgres' ? value : value ? 1 : 0;
}

function readTime(value: Date | string | null): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  // gorm writes up to nine fraction digits; Date parses the first three.
  const normalized = value
    .trim()
    .replace(' ', 'T')
    .replace(/(\.\d{3})\d+/, '$1');
  const date = new Date(normalized);
  return Number.isNaN(date.getTime()) ? null : date;
}

function readFlag(value: boolean | number | string | null): boolean {
  return value === true || Number(value) === 1;
}

function readTransports(value: string | null): string[] {
  try {
    const parsed: unknown = JSON.parse(value ?? '');
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

function stored(row: PasskeyRow): StoredPasskey {
  return {
    id: Number(row.id),
    userId: Number(row.user_id),
    credentialId: row.credential_id,
    publicKey: row.public_key,
    signCount: Number(row.sign_count ?? 0),
    transports: readTransports(row.transports),
    attachment: row.attachment ?? '',
    backupEligible: readFlag(row.backup_eligible),
    backupState: readFlag(row.backup_state),
    name: row.name,
    createdAt: readTime(row.created_at),
    lastUsedAt: readTime(row.last_used_at),
  };
}

/** The family's `passkey_credentials`; rows the family soft-deleted (deleted_at set) are not there for us. */
export function createPasskeysRepo(db: Db) {
  const q = db.kysely;
  const live = () => q.selectFrom('passkey_credentials').selectAll().where('deleted_at', 'is', null);
  return {
    /** The user's passkeys, newest first. */
    async listByUser(userId: number): Promise<StoredPasskey[]> {
      const rows = await live().where('user_id', '=', userId).orderBy('id', 'desc').execute();
      return rows.map(stored);
    },

    async findByCredentialId(credentialId: string): Promise<StoredPasskey | null> {
      const row = await live().where('credential_id', '=', credentialId).executeTakeFirst();
      return row ? stored(row) : null;
    },

    async insert(passkey: NewPasskey, now = new Date()): Promise<void> {
      const time = timeValue(db.dialect, now);
      await q
        .insertInto('passkey_credentials')
        .values({
          user_id: passkey.userId,
          credential_id: passkey.credentialId,
          public_key: passkey.publicKey,
          attestation_type: passkey.attestationType,
          aaguid: passkey.aaguid,
          sign_count: passkey.signCount,
          clone_warning: flagValue(db.dialect, false),
          user_present: flagValue(db.dialect, true),
          user_verified: flagValue(db.dialect, passkey.userVerified),
          backup_eligible: flagValue(db.dialect, passkey.backupEligible),
          backup_state: flagValue(db.dialect, passkey.backupState),
          transports: JSON.stringify(passkey.transports),
          attachment: passkey.attachment,
          name: passkey.name,
          created_at: time,
          updated_at: time,
        })
        .execute();
    },

    /**
     * A successful assertion: the new counter, backup state and time of use, written only while the counter is still
     * the one the assertion was checked against, so of two concurrent uses of one signature only one counts.
     */
    async recordUse(passkey: StoredPasskey, signCount: number, backupState: boolean, now = new Date()) {
      const time = timeValue(db.dialect, now);
      const result = await q
        .updateTable('passkey_credentials')
        .set({
          sign_count: signCount,
          backup_state: flagValue(db.dialect, backupState),
          last_used_at: time,
          updated_at: time,
        })
        .where('id', '=', passkey.id)
        .where('sign_count', '=', passkey.signCount)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async rename(userId: number, id: number, name: string): Promise<boolean> {
      const result = await q
        .updateTable('passkey_credentials')
        .set({ name, updated_at: timeValue(db.dialect, new Date()) })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Hard deletes, like the family, so the unique credential id can be registered again. */
    async deleteOne(userId: number, id: number): Promise<boolean> {
      const result = await q
        .deleteFrom('passkey_credentials')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    async deleteAllOfUser(userId: number): Promise<number> {
      const result = await q.deleteFrom('passkey_credentials').where('user_id', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
