import { sql, type Updateable } from 'kysely';
import type { Db } from '../connection.js';
import type { NewToken, TokenRow, TokensTable } from '../schema.js';
import { containsText, insertReturningId, nowSeconds } from '../sql-helpers.js';
import { sqlOf, type Trx } from '../unit-of-work.js';

export interface TokenSearch {
  keyword?: string;
  key?: string;
}

/** API tokens. Every read or write that comes from a user names the owner, so ids of others never match. */
export function createTokensRepo(db: Db) {
  const q = db.kysely;
  const live = () => q.selectFrom('tokens').where('deleted_at', 'is', null);
  const ownedMatching = (userId: number, search: TokenSearch) => {
    let query = live().where('user_id', '=', userId);
    if (search.keyword) query = query.where(containsText('name', search.keyword));
    if (search.key) query = query.where(containsText('key', search.key));
    return query;
  };

  return {
    async insert(token: NewToken): Promise<number> {
      return insertReturningId(q, db.dialect, 'tokens', { created_time: nowSeconds(), ...token });
    },

    /** Inserts several tokens in the caller's transaction: a batch is created whole or not at all. */
    async insertMany(trx: Trx, tokens: NewToken[]): Promise<void> {
      const now = nowSeconds();
      await sqlOf(trx)
        .insertInto('tokens')
        .values(tokens.map((token) => ({ created_time: now, ...token })))
        .execute();
    },

    /** The budget columns as stored now (not a cached copy): what a rebuilt spend counter starts from. */
    async budgetState(id: number): Promise<Pick<TokenRow, 'id' | 'budget_used' | 'budget_period_start'> | undefined> {
      return q
        .selectFrom('tokens')
        .select(['id', 'budget_used', 'budget_period_start'])
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /**
     * Adds a spend of the period starting at `start`: added to the stored amount of the same period, replacing an
     * older period's, and dropped for a period older than the row's. An increment, so several nodes' writes add up.
     */
    async addBudgetSpend(id: number, start: number, amount: number): Promise<void> {
      await q
        .updateTable('tokens')
        .set({
          budget_used: sql`CASE WHEN budget_period_start = ${start} THEN budget_used + ${amount} ELSE ${amount} END`,
          budget_period_start: start,
        })
        .where('id', '=', id)
        .where('budget_period_start', '<=', start)
        .execute();
    },

    async findOwned(userId: number, id: number): Promise<TokenRow | undefined> {
      return live().selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    },

    async findManyOwned(userId: number, ids: number[]): Promise<TokenRow[]> {
      if (ids.length === 0) return [];
      return live().selectAll().where('user_id', '=', userId).where('id', 'in', ids).execute();
    },

    async findByKey(key: string): Promise<TokenRow | undefined> {
      return live().selectAll().where('key', '=', key).executeTakeFirst();
    },

    async countOwned(userId: number): Promise<number> {
      const row = await live()
        .where('user_id', '=', userId)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async listOwned(
      userId: number,
      offset: number,
      limit: number,
      search: TokenSearch = {},
    ): Promise<{ items: TokenRow[]; total: number }> {
      const [items, total] = await Promise.all([
        ownedMatching(userId, search).selectAll().orderBy('id', 'desc').offset(offset).limit(limit).execute(),
        ownedMatching(userId, search)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { items, total: Number(total.n) };
    },

    async updateOwned(userId: number, id: number, changes: Updateable<TokensTable>): Promise<boolean> {
      const result = await q
        .updateTable('tokens')
        .set(changes)
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Soft delete, so usage logs that name the token keep their meaning. */
    async deleteOwned(userId: number, ids: number[]): Promise<number> {
      if (ids.length === 0) return 0;
      const result = await q
        .updateTable('tokens')
        .set({ deleted_at: nowSeconds() })
        .where('id', 'in', ids)
        .where('user_id', '=', userId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    /** Moves remain/used quota of one token by the same amount in a single statement (settlement and refunds). */
    /** A task's later charge (`delta` > 0) or refund (`delta` < 0) on its token, inside the caller's transaction. */
    async chargeIn(trx: Trx, id: number, delta: number): Promise<void> {
      await sqlOf(trx)
        .updateTable('tokens')
        .set({ remain_quota: sql`remain_quota - ${delta}`, used_quota: sql`used_quota + ${delta}` })
        .where('id', '=', id)
        .execute();
    },

    async consume(id: number, quota: number): Promise<void> {
      await q
        .updateTable('tokens')
        .set({
          remain_quota: sql`remain_quota - ${quota}`,
          used_quota: sql`used_quota + ${quota}`,
          accessed_time: nowSeconds(),
        })
        .where('id', '=', id)
        .execute();
    },
  };
}

export type TokensRepo = ReturnType<typeof createTokensRepo>;
