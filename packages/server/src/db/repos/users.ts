import { sql } from 'kysely';
import type { Db } from '../connection.js';
import type { BindingColumn, NewUser, UserRow, UserUpdate } from '../schema.js';
import { containsText, insertReturningId, nowSeconds } from '../sql-helpers.js';
import { sqlOf, type Trx } from '../unit-of-work.js';

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

    async existsWithRoleAtLeast(role: number, trx?: Trx): Promise<boolean> {
      const row = await sqlOf(trx, q)
        .selectFrom('users')
        .select('id')
        .where('role', '>=', role)
        .limit(1)
        .executeTakeFirst();
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
    async addQuotaIn(trx: Trx, id: number, delta: number): Promise<void> {
      await sqlOf(trx)
        .updateTable('users')
        .set({ quota: sql`quota + ${delta}` })
        .where('id', '=', id)
        .execute();
    },

    /**
     * Charges (`delta` > 0) or gives back (`delta` < 0) quota for something already used, inside the caller's
     * transaction: the balance and the used total move together (a task's refund or its settlement at the end).
     */
    async chargeIn(trx: Trx, id: number, delta: number): Promise<void> {
      await sqlOf(trx)
        .updateTable('users')
        .set({ quota: sql`quota - ${delta}`, used_quota: sql`used_quota + ${delta}` })
        .where('id', '=', id)
        .execute();
    },

    /** Inserts an account inside the caller's transaction (sign-up with its bonuses, first-run setup). */
    async insertIn(trx: Trx, user: NewUser): Promise<number> {
      return insertReturningId(sqlOf(trx), db.dialect, 'users', user);
    },

    /** One more invitee for the inviter, and the inviter's reward on the invitation balance and its history. */
    async creditInviter(trx: Trx, id: number, reward: number): Promise<void> {
      await sqlOf(trx)
        .updateTable('users')
        .set({
          aff_count: sql`aff_count + 1`,
          aff_quota: sql`aff_quota + ${reward}`,
          aff_history_quota: sql`aff_history_quota + ${reward}`,
        })
        .where('id', '=', id)
        .execute();
    },

    /** Moves invitation quota to the balance only if enough is there, as one conditional update. */
    async moveAffQuota(trx: Trx, id: number, quota: number): Promise<boolean> {
      const result = await sqlOf(trx)
        .updateTable('users')
        .set({ aff_quota: sql`aff_quota - ${quota}`, quota: sql`quota + ${quota}` })
        .where('id', '=', id)
        .where('aff_quota', '>=', quota)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** The account a third-party id is bound to, deregistered ones included (they keep their bindings). */
    async findByProviderId(column: BindingColumn, providerId: string): Promise<UserRow | undefined> {
      return q.selectFrom('users').selectAll().where(column, '=', providerId).orderBy('id').executeTakeFirst();
    },

    /** The highest user id so far (0 when there is none): generated usernames count on from it. */
    async maxId(): Promise<number> {
      const row = await q
        .selectFrom('users')
        .select((eb) => eb.fn.max('id').as('max'))
        .executeTakeFirst();
      return Number(row?.max ?? 0);
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
