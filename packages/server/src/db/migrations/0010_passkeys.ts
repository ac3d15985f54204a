import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';
import { create, withId } from './0001_initial.js';

/** The family's gorm `time.Time` column on each dialect, so either server reads the other's rows. */
function timeType(dialect: Dialect) {
  if (dialect === 'postgres') return 'timestamptz' as const;
  return dialect === 'mysql' ? sql`datetime(3)` : ('datetime' as const);
}

async function createIndexOnce(
  db: Kysely<unknown>,
  dialect: Dialect,
  name: string,
  column: string,
  unique: boolean,
): Promise<void> {
  if (dialect === 'mysql') {
    // MySQL has no CREATE INDEX IF NOT EXISTS (MariaDB has).
    const { rows } = await sql<{ n: number }>`
      select count(*) as n from information_schema.statistics
      where table_schema = database() and table_name = 'passkey_credentials' and index_name = ${name}`.execute(db);
    if (Number(rows[0]?.n ?? 0) > 0) return;
  }
  let index = db.schema.createIndex(name).on('passkey_credentials').column(column);
  if (unique) index = index.unique();
  await (dialect === 'mysql' ? index : index.ifNotExists()).execute();
}

/**
 * Passkeys (WebAuthn credentials) in the family's table `passkey_credentials` (new-api's model/passkey.go): the
 * credential id and COSE public key in standard base64, the sign counter and flags, timestamps as the family's
 * datetimes. A family database that already has the table keeps it and its rows (db/family/plan.ts checks its
 * columns). Ours: `name`, the owner's label, since a user here may have several passkeys (the family ignores it).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const time = timeType(dialect);
  await withId(create(db, 'passkey_credentials', dialect).ifNotExists(), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('credential_id', 'varchar(512)', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('attestation_type', 'varchar(255)')
    .addColumn('aaguid', 'varchar(512)')
    .addColumn('sign_count', 'bigint', (c) => c.defaultTo(0))
    .addColumn('clone_warning', 'boolean')
    .addColumn('user_present', 'boolean')
    .addColumn('user_verified', 'boolean')
    .addColumn('backup_eligible', 'boolean')
    .addColumn('backup_state', 'boolean')
    .addColumn('transports', 'text')
    .addColumn('attachment', 'varchar(32)')
    .addColumn('last_used_at', time)
    .addColumn('created_at', time)
    .addColumn('updated_at', time)
    .addColumn('deleted_at', time)
    .execute();
  await db.schema.alterTable('passkey_credentials').addColumn('name', 'varchar(64)').execute();
  await createIndexOnce(db, dialect, 'idx_passkey_credentials_credential_id', 'credential_id', true);
  await createIndexOnce(db, dialect, 'idx_passkey_credentials_user_id', 'user_id', false);
}
