import { type Kysely, sql } from 'kysely';
import type { Db } from '../connection.js';
import type { Database, NewUser, UserRow, UserUpdate } from '../schema.js';
import { containsText, insertReturningId, nowSeconds } from '../sql-helpers.js';

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

    /** The first live user with the highest role: who hears about system events (a channel disabled, …). */
    async findRoot(): Promise<UserRow | undefined> {
      return live().selectAll().orderBy('role', 'desc').orderBy('id').limit(1).executeTakeFirst();
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

    /** Admin list and search (deleted users included: the console shows them as deregistered). */
    async search(
      filter: { keyword?: string; group?: string },
      offset: number,
      limit: number,
    ): Promise<{ items: UserRow[]; total: number }> {
      const matching = () => {
        let query = q.selectFrom('users');
        if (filter.keyword) {
          const keyword = filter.keyword;
          const id = Number(keyword);
          query = query.where((eb) =>
            eb.or([
              containsText('username', keyword),
              containsText('display_name', keyword),
              containsText('email', keyword),
              ...(Number.isInteger(id) && id > 0 ? [eb('id', '=', id)] : []),
            ]),
          );
        }
        if (filter.group) query = query.where('group', '=', filter.group);
        return query;
      };
      const [items, total] = await Promise.all([
        matching().selectAll().orderBy('id', 'desc').offset(offset).limit(limit).execute(),
        matching()
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { items, total: Number(total.n) };
    },

    async usernameTaken(username: string, exceptId = 0): Promise<boolean> {
      const row = await q
        .selectFrom('users')
        .select('id')
        .where('username', '=', username)
        .where('id', '!=', exceptId)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The live account an e-mail address belongs to (password reset). */
    async findByEmail(email: string): Promise<UserRow | undefined> {
      if (!email) return undefined;
      return live().selectAll().where('email', '=', email).orderBy('id').executeTakeFirst();
    },

    /** Whether another account, deregistered ones included, already holds this address. */
    async emailTaken(email: string, exceptId = 0): Promise<boolean> {
      const row = await q
        .selectFrom('users')
        .select('id')
        .where('email', '=', email)
        .where('id', '!=', exceptId)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The live inviter behind an invitation code. */
    async findByAffCode(code: string): Promise<UserRow | undefined> {
      if (!code) return undefined;
      return live().selectAll().where('aff_code', '=', code).executeTakeFirst();
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
