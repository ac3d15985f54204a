import { type Kysely, sql } from 'kysely';
import type { Db } from '../connection.js';
import type { Database, NewLog } from '../schema.js';
import { insertLogRows, nextTurn, SQLITE_CHUNK, sqliteLogStatement } from './logs.js';

/**
 * A run of settled requests written as one unit: their usage-log rows and what they took from users, tokens and
 * channels. Writing both in one transaction is what keeps the books agreeing after a crash: a balance always
 * equals its start minus the charges logged against it, whether the crash came before or after the commit.
 */
export interface BookChunk {
  logs: NewLog[];
  /** `spent` comes off the wallet; `used` (wallet and subscriptions) counts in used_quota. */
  users: Array<{ id: number; spent: number; used: number; requests: number }>;
  /** What requests took from subscriptions' period quota (`amount_used = amount_used + spent`). */
  subscriptions: Array<{ id: number; spent: number }>;
  tokens: Array<{ id: number; spent: number }>;
  channels: Array<{ id: number; spent: number }>;
  /** Unix seconds, for the tokens' accessed_time. */
  now: number;
}

export interface BooksRepo {
  /** Entries per chunk: small on SQLite, whose synchronous write holds the event loop while it runs. */
  readonly chunkSize: number;
  write(chunk: BookChunk): Promise<void>;
  /**
   * A user's quota, a token's remaining quota, or what a subscription has left in its period (total - used), as
   * stored (0 for one that does not exist).
   */
  readBalance(kind: 'user' | 'token' | 'subscription', id: number): Promise<number>;
}

export function createBooksRepo(db: Db): BooksRepo {
  const readBalance = async (kind: 'user' | 'token' | 'subscription', id: number) => {
    if (kind === 'subscription') {
      const row = await db.kysely
        .selectFrom('user_subscriptions')
        .select(['amount_total', 'amount_used'])
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? Number(row.amount_total) - Number(row.amount_used) : 0;
    }
    if (kind === 'user') {
      const row = await db.kysely.selectFrom('users').select('quota').where('id', '=', id).executeTakeFirst();
      return Number(row?.quota ?? 0);
    }
    const row = await db.kysely.selectFrom('tokens').select('remain_quota').where('id', '=', id).executeTakeFirst();
    return Number(row?.remain_quota ?? 0);
  };
  if (db.sqlite) return { ...sqliteBooks(db.sqlite), readBalance };
  return {
    chunkSize: 500,
    write: (chunk) => db.kysely.transaction().execute((trx) => writeAsync(trx, db, chunk)),
    readBalance,
  };
}

async function writeAsync(trx: Kysely<Database>, db: Db, chunk: BookChunk): Promise<void> {
  await insertLogRows(trx, db.dialect, chunk.logs);
  for (const user of chunk.users) {
    await trx
      .updateTable('users')
      .set({
        quota: sql`quota - ${user.spent}`,
        used_quota: sql`used_quota + ${user.used}`,
        request_count: sql`request_count + ${user.requests}`,
      })
      .where('id', '=', user.id)
      .execute();
  }
  for (const token of chunk.tokens) {
    await trx
      .updateTable('tokens')
      .set({
        remain_quota: sql`remain_quota - ${token.spent}`,
        used_quota: sql`used_quota + ${token.spent}`,
        accessed_time: chunk.now,
      })
      .where('id', '=', token.id)
      .execute();
  }
  for (const subscription of chunk.subscriptions) {
    await trx
      .updateTable('user_subscriptions')
      .set({ amount_used: sql`amount_used + ${subscription.spent}` })
      .where('id', '=', subscription.id)
      .execute();
  }
  for (const channel of chunk.channels) {
    await trx
      .updateTable('channels')
      .set({ used_quota: sql`used_quota + ${channel.spent}` })
      .where('id', '=', channel.id)
      .execute();
  }
}

/** SQLite: prepared statements in one synchronous IMMEDIATE transaction, so another process's lock is waited for. */
function sqliteBooks(database: NonNullable<Db['sqlite']>): Omit<BooksRepo, 'readBalance'> {
  let write: ((chunk: BookChunk) => void) | undefined;
  const prepare = () => {
    const insertLog = sqliteLogStatement(database);
    const user = database.prepare(
      'UPDATE users SET quota = quota - ?, used_quota = used_quota + ?, request_count = request_count + ? WHERE id = ?',
    );
    const token = database.prepare(
      'UPDATE tokens SET remain_quota = remain_quota - ?, used_quota = used_quota + ?, accessed_time = ? WHERE id = ?',
    );
    const channel = database.prepare('UPDATE channels SET used_quota = used_quota + ? WHERE id = ?');
    const subscription = database.prepare('UPDATE user_subscriptions SET amount_used = amount_used + ? WHERE id = ?');
    const transaction = database.transaction((chunk: BookChunk) => {
      for (const row of chunk.logs) insertLog(row);
      for (const u of chunk.users) user.run(u.spent, u.used, u.requests, u.id);
      for (const s of chunk.subscriptions) subscription.run(s.spent, s.id);
      for (const t of chunk.tokens) token.run(t.spent, t.spent, chunk.now, t.id);
      for (const c of chunk.channels) channel.run(c.spent, c.id);
    });
    return (chunk: BookChunk) => transaction.immediate(chunk);
  };
  return {
    chunkSize: SQLITE_CHUNK,
    async write(chunk) {
      // Kysely keeps its transactions open across awaits on the same connection; a synchronous write now would
      // become part of one, so wait for it to end. Prepared on first use: the tables exist after the migrations.
      while (database.inTransaction) await nextTurn();
      write ??= prepare();
      write(chunk);
    },
  };
}
