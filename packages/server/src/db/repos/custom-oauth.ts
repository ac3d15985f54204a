import type { Insertable, Selectable } from 'kysely';
import type { Db, Dialect } from '../connection.js';
import { dateTimeText } from '../family/readings.js';
import type { CustomOAuthProvidersTable } from '../schema.js';

export type CustomOAuthProviderRow = Selectable<CustomOAuthProvidersTable>;
/** The columns a save writes (times are set here). */
export type CustomOAuthProviderFields = Omit<Insertable<CustomOAuthProvidersTable>, 'id' | 'created_at' | 'updated_at'>;

/** One of a user's custom-provider bindings, with the provider it is with. */
export interface CustomBinding {
  providerId: number;
  providerUserId: string;
  providerName: string;
  providerSlug: string;
  providerIcon: string;
}

/** gorm's time.Time: SQLite keeps text as the family's driver writes it; pg and mysql2 take a Date. */
function timeValue(seconds: number, dialect: Dialect): string | Date {
  return dialect === 'sqlite' ? dateTimeText(seconds, dialect) : new Date(seconds * 1000);
}

/** The family's `custom_oauth_providers` and `user_oauth_bindings`. */
export function createCustomOAuthRepo(db: Db) {
  const q = db.kysely;
  const at = (seconds: number) => timeValue(seconds, db.dialect);

  return {
    list(): Promise<CustomOAuthProviderRow[]> {
      return q.selectFrom('custom_oauth_providers').selectAll().orderBy('id', 'asc').execute();
    },

    listEnabled(): Promise<CustomOAuthProviderRow[]> {
      return q.selectFrom('custom_oauth_providers').selectAll().where('enabled', '=', 1).orderBy('id', 'asc').execute();
    },

    find(id: number): Promise<CustomOAuthProviderRow | undefined> {
      return q.selectFrom('custom_oauth_providers').selectAll().where('id', '=', id).executeTakeFirst();
    },

    findBySlug(slug: string): Promise<CustomOAuthProviderRow | undefined> {
      return q.selectFrom('custom_oauth_providers').selectAll().where('slug', '=', slug).executeTakeFirst();
    },

    async slugTaken(slug: string, exceptId = 0): Promise<boolean> {
      const row = await q
        .selectFrom('custom_oauth_providers')
        .select('id')
        .where('slug', '=', slug)
        .where('id', '!=', exceptId)
        .executeTakeFirst();
      return row !== undefined;
    },

    async insert(fields: CustomOAuthProviderFields, now: number): Promise<number> {
      const values = { ...fields, created_at: at(now), updated_at: at(now) };
      if (db.dialect === 'postgres') {
        const row = await q
          .insertInto('custom_oauth_providers')
          .values(values)
          .returning('id')
          .executeTakeFirstOrThrow();
        return row.id;
      }
      const result = await q.insertInto('custom_oauth_providers').values(values).executeTakeFirstOrThrow();
      return Number(result.insertId);
    },

    async update(id: number, fields: Partial<CustomOAuthProviderFields>, now: number): Promise<void> {
      await q
        .updateTable('custom_oauth_providers')
        .set({ ...fields, updated_at: at(now) })
        .where('id', '=', id)
        .execute();
    },

    /** Deletes a provider that nobody is bound to; false when someone is (or it is gone). Checked in one step. */
    async deleteUnbound(id: number): Promise<'deleted' | 'bound' | 'missing'> {
      return q.transaction().execute(async (trx) => {
        const bound = await trx
          .selectFrom('user_oauth_bindings')
          .select('id')
          .where('provider_id', '=', id)
          .executeTakeFirst();
        if (bound) return 'bound';
        const result = await trx.deleteFrom('custom_oauth_providers').where('id', '=', id).executeTakeFirst();
        return Number(result.numDeletedRows) > 0 ? 'deleted' : 'missing';
      });
    },

    async bindingCount(providerId: number): Promise<number> {
      const row = await q
        .selectFrom('user_oauth_bindings')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('provider_id', '=', providerId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    /** The account id bound to this person at this provider. */
    async userIdFor(providerId: number, providerUserId: string): Promise<number | undefined> {
      const row = await q
        .selectFrom('user_oauth_bindings')
        .select('user_id')
        .where('provider_id', '=', providerId)
        .where('provider_user_id', '=', providerUserId)
        .executeTakeFirst();
      return row?.user_id;
    },

    async bindingsOf(userId: number): Promise<CustomBinding[]> {
      const rows = await q
        .selectFrom('user_oauth_bindings as b')
        .innerJoin('custom_oauth_providers as p', 'p.id', 'b.provider_id')
        .select(['b.provider_id', 'b.provider_user_id', 'p.name', 'p.slug', 'p.icon'])
        .where('b.user_id', '=', userId)
        .orderBy('b.provider_id', 'asc')
        .execute();
      return rows.map((row) => ({
        providerId: row.provider_id,
        providerUserId: row.provider_user_id,
        providerName: row.name,
        providerSlug: row.slug,
        providerIcon: row.icon ?? '',
      }));
    },

    /** Binds (or re-binds) the user's account at this provider; the unique indexes refuse a person bound elsewhere. */
    async bind(userId: number, providerId: number, providerUserId: string, now: number): Promise<void> {
      await q.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('user_oauth_bindings')
          .where('user_id', '=', userId)
          .where('provider_id', '=', providerId)
          .execute();
        await trx
          .insertInto('user_oauth_bindings')
          .values({ user_id: userId, provider_id: providerId, provider_user_id: providerUserId, created_at: at(now) })
          .execute();
      });
    },

    async unbind(userId: number, providerId: number): Promise<boolean> {
      const result = await q
        .deleteFrom('user_oauth_bindings')
        .where('user_id', '=', userId)
        .where('provider_id', '=', providerId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
