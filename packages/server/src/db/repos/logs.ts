import { type CacheUsageView, LogType } from '@gateway/shared';
import { CompiledQuery, type Kysely, sql } from 'kysely';
import type { Db } from '../connection.js';
import type { Database, LogRow, NewLog } from '../schema.js';

export interface LogFilter {
  userId?: number;
  type?: number;
  tokenName?: string;
  modelName?: string;
  username?: string;
  channelId?: number;
  group?: string;
  startTimestamp?: number;
  endTimestamp?: number;
}

// Multi-row inserts take the union of the rows' columns, and SQLite fills a missing value with NULL instead of the
// column default: every row is completed with the defaults first.
const LOG_DEFAULTS = {
  user_id: 0,
  type: LogType.Unknown,
  content: '',
  username: '',
  token_name: '',
  token_id: 0,
  model_name: '',
  quota: 0,
  prompt_tokens: 0,
  completion_tokens: 0,
  use_time: 0,
  is_stream: 0,
  channel_id: 0,
  channel_name: '',
  group: '',
  ip: '',
  request_id: '',
  other: '',
} satisfies Omit<NewLog, 'created_at'>;

export const LOG_COLUMNS = ['created_at', ...Object.keys(LOG_DEFAULTS)] as (keyof NewLog)[];

/**
 * Rows per SQLite transaction. A log row costs about 25 µs to insert (the table and its eight indexes), so 25 rows
 * hold the event loop for well under a millisecond before other work gets a turn; 100-row chunks showed up as 3 ms
 * stalls in the benchmark's p99.
 */
export const SQLITE_CHUNK = 25;

export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * One row's values in LOG_COLUMNS order, defaults filled in. Every property is read by its own name: a loop over
 * the column names read them with computed keys, 38 per row, each served by V8's slowest (megamorphic) lookup.
 * repositories.test.ts checks the order against LOG_COLUMNS.
 */
export function fillLogValues(row: NewLog, values: unknown[]): void {
  values[0] = row.created_at;
  values[1] = row.user_id ?? LOG_DEFAULTS.user_id;
  values[2] = row.type ?? LOG_DEFAULTS.type;
  values[3] = row.content ?? LOG_DEFAULTS.content;
  values[4] = row.username ?? LOG_DEFAULTS.username;
  values[5] = row.token_name ?? LOG_DEFAULTS.token_name;
  values[6] = row.token_id ?? LOG_DEFAULTS.token_id;
  values[7] = row.model_name ?? LOG_DEFAULTS.model_name;
  values[8] = row.quota ?? LOG_DEFAULTS.quota;
  values[9] = row.prompt_tokens ?? LOG_DEFAULTS.prompt_tokens;
  values[10] = row.completion_tokens ?? LOG_DEFAULTS.completion_tokens;
  values[11] = row.use_time ?? LOG_DEFAULTS.use_time;
  values[12] = row.is_stream ?? LOG_DEFAULTS.is_stream;
  values[13] = row.channel_id ?? LOG_DEFAULTS.channel_id;
  values[14] = row.channel_name ?? LOG_DEFAULTS.channel_name;
  values[15] = row.group ?? LOG_DEFAULTS.group;
  values[16] = row.ip ?? LOG_DEFAULTS.ip;
  values[17] = row.request_id ?? LOG_DEFAULTS.request_id;
  values[18] = row.other ?? LOG_DEFAULTS.other;
}

/** The INSERT of one log row for SQLite, prepared once, and a function that runs it for a row. */
export function sqliteLogStatement(database: NonNullable<Db['sqlite']>): (row: NewLog) => void {
  const statement = database.prepare(
    `INSERT INTO logs (${quotedLogColumns('sqlite')}) VALUES (${LOG_COLUMNS.map(() => '?').join(', ')})`,
  );
  // Positional values in one reused array, passed as arguments: binding by name cost a fresh object and a lookup
  // per column per row, and an array argument is read back element by element through V8's API.
  const values: unknown[] = new Array(LOG_COLUMNS.length);
  return (row) => {
    fillLogValues(row, values);
    statement.run(...values);
  };
}

export function quotedLogColumns(dialect: Db['dialect']): string {
  return LOG_COLUMNS.map((name) => (dialect === 'mysql' ? `\`${name}\`` : `"${name}"`)).join(', ');
}

/** Multi-row INSERTs of log rows through a Kysely executor (a transaction or the pool), 200 rows a statement. */
export async function insertLogRows(q: Kysely<Database>, dialect: Db['dialect'], rows: NewLog[]): Promise<void> {
  const columns = quotedLogColumns(dialect);
  for (let start = 0; start < rows.length; start += 200) {
    const batch = rows.slice(start, start + 200);
    const params: unknown[] = [];
    const values: unknown[] = new Array(LOG_COLUMNS.length);
    const tuples = batch.map((row) => {
      fillLogValues(row, values);
      const placeholders = values.map((value) => {
        params.push(value ?? null);
        return dialect === 'postgres' ? `$${params.length}` : '?';
      });
      return `(${placeholders.join(', ')})`;
    });
    await q.executeQuery(CompiledQuery.raw(`INSERT INTO logs (${columns}) VALUES ${tuples.join(', ')}`, params));
  }
}

/**
 * SQLite writes are synchronous: one prepared statement, run row by row inside short transactions, with the event
 * loop released between chunks so a flush never stalls the requests in flight.
 */
function sqliteLogInserter(database: NonNullable<Db['sqlite']>) {
  const insert = sqliteLogStatement(database);
  const insertChunk = database.transaction((rows: NewLog[]) => {
    for (const row of rows) insert(row);
  });
  return async (rows: NewLog[]): Promise<void> => {
    for (let start = 0; start < rows.length; start += SQLITE_CHUNK) {
      // Kysely keeps a transaction open across awaits; a synchronous write now would become part of it, so wait
      // for it to end.
      while (database.inTransaction) await nextTurn();
      // BEGIN IMMEDIATE, as every write transaction here (db/sqlite-dialect.ts): it waits on the busy timeout.
      insertChunk.immediate(rows.slice(start, start + SQLITE_CHUNK));
      if (start + SQLITE_CHUNK < rows.length) await nextTurn();
    }
  };
}

/**
 * A call log's cached prompt tokens (`other.cache_tokens`) as SQL. `other` is text and may hold anything an adopted
 * database left there, so SQLite and MySQL check it is JSON first and PostgreSQL reads the number with a pattern
 * (its JSON cast would fail the whole query on one bad row).
 */
function cachedTokensSql(dialect: Db['dialect']) {
  if (dialect === 'postgres')
    return sql<number>`coalesce(substring(other from '"cache_tokens":\\s*([0-9]+)')::bigint, 0)`;
  return sql<number>`case when json_valid(other) then coalesce(json_extract(other, '$.cache_tokens'), 0) else 0 end`;
}

export function createLogsRepo(db: Db) {
  const q = db.kysely;
  let sqliteInsert: ((rows: NewLog[]) => Promise<void>) | undefined;

  const filtered = (filter: LogFilter) => {
    let query = q.selectFrom('logs');
    if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
    if (filter.type) query = query.where('type', '=', filter.type);
    if (filter.tokenName) query = query.where('token_name', '=', filter.tokenName);
    if (filter.modelName) query = query.where('model_name', '=', filter.modelName);
    if (filter.username) query = query.where('username', '=', filter.username);
    if (filter.channelId) query = query.where('channel_id', '=', filter.channelId);
    if (filter.group) query = query.where('group', '=', filter.group);
    if (filter.startTimestamp) query = query.where('created_at', '>=', filter.startTimestamp);
    if (filter.endTimestamp) query = query.where('created_at', '<=', filter.endTimestamp);
    return query;
  };

  return {
    /**
     * Batched insert: the relay's log writer hands over everything it buffered since the last flush. The statement
     * is built directly (one placeholder list per row) rather than through the query builder, whose per-value
     * parsing was the writer's main CPU cost under load.
     */
    async insertMany(rows: NewLog[]): Promise<void> {
      if (!db.sqlite) return insertLogRows(q, db.dialect, rows);
      // Prepared on first use: the table exists only after the migrations ran.
      sqliteInsert ??= sqliteLogInserter(db.sqlite);
      return sqliteInsert(rows);
    },
    async list(filter: LogFilter, offset: number, limit: number): Promise<{ items: LogRow[]; total: number }> {
      const [items, total] = await Promise.all([
        filtered(filter)
          .selectAll()
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .offset(offset)
          .limit(limit)
          .execute(),
        filtered(filter)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { items, total: Number(total.n) };
    },
    /** Sum of quota over the filter, plus requests and tokens of the last 60 seconds (rpm, tpm). */
    async stat(filter: LogFilter, now: number): Promise<{ quota: number; rpm: number; tpm: number }> {
      const [total, recent] = await Promise.all([
        filtered(filter)
          .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('quota'), eb.lit(0)).as('quota'))
          .executeTakeFirstOrThrow(),
        filtered({ ...filter, startTimestamp: now - 60, endTimestamp: undefined })
          .select((eb) => [
            eb.fn.countAll<number>().as('requests'),
            eb.fn.coalesce(eb.fn.sum<number>(sql<number>`prompt_tokens + completion_tokens`), eb.lit(0)).as('tokens'),
          ])
          .executeTakeFirstOrThrow(),
      ]);
      return { quota: Number(total.quota), rpm: Number(recent.requests), tpm: Number(recent.tokens) };
    },
    /** Call logs over the filter grouped by key and model, busiest first: prompt tokens and the cached part. */
    async cacheUsage(filter: LogFilter, limit: number): Promise<CacheUsageView[]> {
      const cached = cachedTokensSql(db.dialect);
      const rows = await filtered({ ...filter, type: LogType.Consume })
        .select((eb) => [
          'token_name',
          'model_name',
          eb.fn.countAll<number>().as('requests'),
          eb.fn.coalesce(eb.fn.sum<number>('prompt_tokens'), eb.lit(0)).as('prompt_tokens'),
          eb.fn.coalesce(eb.fn.sum<number>(cached), eb.lit(0)).as('cached_tokens'),
        ])
        .groupBy(['token_name', 'model_name'])
        .orderBy('prompt_tokens', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        token_name: row.token_name,
        model_name: row.model_name,
        requests: Number(row.requests),
        prompt_tokens: Number(row.prompt_tokens),
        cached_tokens: Number(row.cached_tokens),
      }));
    },
    /** The request id (X-Oneapi-Request-Id) of row `id`, '' when it has none or does not exist. */
    async requestIdOf(id: number): Promise<string> {
      const row = await q.selectFrom('logs').select('request_id').where('id', '=', id).executeTakeFirst();
      return row?.request_id ?? '';
    },
    async deleteBefore(timestamp: number): Promise<number> {
      const result = await q.deleteFrom('logs').where('created_at', '<', timestamp).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type LogsRepo = ReturnType<typeof createLogsRepo>;
