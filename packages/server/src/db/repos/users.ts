import { type Kysely, sql } from 'kysely';
import type { Db } from '../connection.js';
import type { Database, NewUser, UserRow, UserUpdate } from '../schema.js';
import { insertReturningId, nowSeconds } from '../sql-helpers.js';

export function createUsersRepo(db: Db) {
  const q = db.kysely;
  const live = () => q.selectFrom('users').where('deleted_at', 'is', null);

  return {
    async insert(user: NewUser): Promise<number> {
      return insertReturningId(q, db.dialect, 'users', { created_at: nowSeconds(), ...user });
    },

    async findById(id: number): Promise<UserRow | undefined> {
      return q.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Password login accepts the username or the e-mail address; deleted users never match. */
    async findForLogin(identifier: string): Promise<UserRow | undefined> {
      return live()
        .selectAll()
        .where((eb) =>
          eb.or([eb('username', '=', identifier), eb.and([eb('email', '=', identifier), eb('email', '!=', '')])]),
        )
        .orderBy('id')
        .executeTakeFirst();
    },

    async findByAccessToken(token: string): Promise<UserRow | undefined> {
      return live().selectAll().where('access_token', '=', token).executeTakeFirst();
    },

    async existsWithRoleAtLeast(role: number): Promise<boolean> {
      const row = await q.selectFrom('users').select('id').where('role', '>=', role).limit(1).executeTakeFirst();
      return row !== undefined;
    },

    async update(id: number, changes: UserUpdate): Promise<void> {
      await q.updateTable('users').set(changes).where('id', '=', id).execute();
    },

    /** Adds (or with a negative delta, removes) quota in one statement so concurrent changes never overwrite. */
    async addQuota(id: number, delta: number): Promise<void> {
      await q
        .updateTable('users')
        .set({ quota: sql`quota + ${delta}` })
        .where('id', '=', id)
        .execute();
    },

    /** The same increment inside the caller's transaction (redemptions, payments). */
    async addQuotaIn(trx: Kysely<Database>, id: number, delta: number): Promise<void> {
      await trx
        .updateTable('users')
        .set({ quota: sql`quota + ${delta}` })
        .where('id', '=', id)
        .execute();
    },

    async count(): Promise<number> {
      const row = await q
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

export type UsersRepo = ReturnType<typeof createUsersRepo>;
