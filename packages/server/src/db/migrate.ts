import { type Kysely, type Migration, Migrator } from 'kysely';
import type { Db } from './connection.js';
import { familyAdoption, runAdoption } from './family/adopt.js';
import type { AdoptionPlan } from './family/plan.js';
import * as initial from './migrations/0001_initial.js';
import * as jobLeases from './migrations/0002_job_leases.js';
import * as auditLog from './migrations/0003_audit_log.js';
import * as limits from './migrations/0004_limits.js';
import * as fallback from './migrations/0005_fallback.js';
import * as requestBodies from './migrations/0006_request_bodies.js';
import * as quotaDataNotUnique from './migrations/0007_quota_data_not_unique.js';
import * as checkins from './migrations/0008_checkins.js';
import * as twoFa from './migrations/0009_two_fa.js';
import * as passkeys from './migrations/0010_passkeys.js';
import * as topUpProvider from './migrations/0011_top_up_provider.js';
import * as modelCatalogue from './migrations/0012_model_catalogue.js';
import * as channelSettings from './migrations/0014_channel_settings.js';
import * as customOAuthProviders from './migrations/0015_custom_oauth_providers.js';
import * as subscriptions from './migrations/0016_subscriptions.js';

/** Migrations live in code (not files read at run time) so the bundled server and the tests see the same list. */
function migrations(db: Db, adoption: AdoptionPlan | null = null): Record<string, Migration> {
  return {
    '0001_initial': {
      up: (kysely: Kysely<unknown>) =>
        adoption ? runAdoption(kysely, db.dialect, adoption) : initial.up(kysely, db.dialect),
    },
    '0002_job_leases': { up: (kysely: Kysely<unknown>) => jobLeases.up(kysely, db.dialect) },
    '0003_audit_log': { up: (kysely: Kysely<unknown>) => auditLog.up(kysely, db.dialect) },
    '0004_limits': { up: (kysely: Kysely<unknown>) => limits.up(kysely, db.dialect) },
    '0005_fallback': { up: (kysely: Kysely<unknown>) => fallback.up(kysely, db.dialect) },
    '0006_request_bodies': { up: (kysely: Kysely<unknown>) => requestBodies.up(kysely, db.dialect) },
    '0007_quota_data_not_unique': { up: (kysely: Kysely<unknown>) => quotaDataNotUnique.up(kysely, db.dialect) },
    '0008_checkins': { up: (kysely: Kysely<unknown>) => checkins.up(kysely, db.dialect) },
    '0009_two_fa': { up: (kysely: Kysely<unknown>) => twoFa.up(kysely, db.dialect) },
    '0010_passkeys': { up: (kysely: Kysely<unknown>) => passkeys.up(kysely, db.dialect) },
    '0011_top_up_provider': { up: (kysely: Kysely<unknown>) => topUpProvider.up(kysely, db.dialect) },
    '0012_model_catalogue': { up: (kysely: Kysely<unknown>) => modelCatalogue.up(kysely, db.dialect) },
    '0014_channel_settings': { up: (kysely: Kysely<unknown>) => channelSettings.up(kysely, db.dialect) },
    '0015_custom_oauth_providers': { up: (kysely: Kysely<unknown>) => customOAuthProviders.up(kysely, db.dialect) },
    '0016_subscriptions': { up: (kysely: Kysely<unknown>) => subscriptions.up(kysely, db.dialect) },
  };
}

function migratorFor(db: Db, adoption: AdoptionPlan | null = null): Migrator {
  return new Migrator({ db: db.kysely, provider: { getMigrations: async () => migrations(db, adoption) } });
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  // A database written by new-api or one-api is adopted in place instead of created (see family/adopt.ts);
  // it is checked before anything changes, and refused with a message naming what was found.
  const { '0001_initial': initialMigration, ...later } = migrations(db);
  const laterUps = Object.values(later).map((migration) => migration.up);
  const adoption = initialMigration ? await familyAdoption(db, initialMigration.up, laterUps) : null;
  const { error, results } = await migratorFor(db, adoption).migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`database migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

/** Migrations this code knows that the database has not run (a slave node is not ready until the master ran them). */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const known = await migratorFor(db).getMigrations();
  return known.filter((migration) => migration.executedAt === undefined).map((migration) => migration.name);
}
