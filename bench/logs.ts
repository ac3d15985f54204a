/**
 * `npm run bench:logs`: does the usage-log page stay fast with a million rows? Fills a fresh database with generated
 * logs (1 000 users, 40 models, 20 channels, 30 days, types as in real use), then times the exact queries the log
 * page and its statistics run (the server's own repository code), each repeated and reported as the median.
 *
 *   npm run bench:logs                                  # SQLite, 1 000 000 rows
 *   npm run bench:logs -- --dialect postgres --rows 1000000
 *   npm run bench:logs -- --dialect mysql
 *
 * PostgreSQL and MySQL use a throwaway database on the local server (TEST_PG_URL / TEST_MYSQL_URL, as the tests do),
 * dropped at the end. Nothing is asserted: the figures go to the screen and bench/results/logs-<dialect>.md.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { openDatabase } from '../packages/server/src/db/connection.js';
import type { DatabaseTarget } from '../packages/server/src/db/dsn.js';
import { migrateToLatest } from '../packages/server/src/db/migrate.js';
import type { LogFilter } from '../packages/server/src/db/repos/logs.js';
import { createRepositories } from '../packages/server/src/db/repositories.js';

const { values } = parseArgs({
  options: {
    dialect: { type: 'string', default: 'sqlite' },
    rows: { type: 'string', default: '1000000' },
    repeat: { type: 'string', default: '15' },
  },
});
const dialect = values.dialect as DatabaseTarget['dialect'];
const rows = Number(values.rows);
const repeat = Number(values.repeat);
const NOW = 1_790_000_000;
const DAY = 86_400;
const USERS = 1000;
const MODELS = 40;
const CHANNELS = 20;

async function throwawayTarget(): Promise<{ target: DatabaseTarget; drop: () => Promise<void> }> {
  const name = `bench_logs_${Date.now().toString(36)}`;
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'bench-logs-'));
    return {
      target: { dialect, path: join(dir, 'logs.db') },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  if (dialect === 'postgres') {
    const base = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
    const { default: pg } = await import('pg');
    const run = async (statement: string) => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(statement);
      await client.end();
    };
    await run(`CREATE DATABASE ${name}`);
    const url = new URL(base);
    url.pathname = `/${name}`;
    return {
      target: { dialect, connectionString: url.toString() },
      drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
    };
  }
  const base = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
  const { createConnection } = await import('mysql2/promise');
  const run = async (statement: string) => {
    const connection = await createConnection(base);
    await connection.query(statement);
    await connection.end();
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { target: { dialect, uri: url.toString() }, drop: () => run(`DROP DATABASE IF EXISTS ${name}`) };
}

/**
 * Rows are generated inside the database from a number sequence (one statement per 100 000 rows), which fills a
 * million rows in seconds instead of shipping them over the driver. Values are spread so every filter is selective
 * the way it is in a real gateway: a user has about 0.1 % of the rows, a model 2.5 %, a channel 5 %. Times grow
 * with the row number, as they do in a log that is only ever appended to.
 */
async function fill(db: Awaited<ReturnType<typeof openDatabase>>): Promise<void> {
  const q = db.kysely;
  const chunk = 100_000;
  const columns =
    'created_at, user_id, type, content, username, token_name, token_id, model_name, quota, prompt_tokens, ' +
    'completion_tokens, use_time, is_stream, channel_id, channel_name, "group", ip, request_id, other';
  const cols = dialect === 'mysql' ? columns.replace('"group"', '`group`') : columns;
  const concat = (...parts: string[]) => (dialect === 'mysql' ? `CONCAT(${parts.join(', ')})` : parts.join(' || '));
  // Parenthesised: in SQLite `||` binds tighter than `+` and `%`.
  const text = (expression: string) => (dialect === 'postgres' ? `(${expression})::text` : `(${expression})`);
  for (let start = 0; start < rows; start += chunk) {
    const count = Math.min(chunk, rows - start);
    const select = `SELECT
        ${NOW} - 30 * ${DAY} + (n * 30 * ${DAY}) / ${rows},
        1 + (n % ${USERS}),
        CASE WHEN n % 50 = 0 THEN 5 WHEN n % 97 = 0 THEN 1 ELSE 2 END,
        '',
        ${concat("'user'", text(`1 + (n % ${USERS})`))},
        ${concat("'token-'", text('n % 3'))},
        n % 3000,
        ${concat("'model-'", text(`n % ${MODELS}`))},
        (n * 31) % 5000,
        (n * 17) % 2000,
        (n * 13) % 800,
        n % 20,
        n % 2,
        1 + (n % ${CHANNELS}),
        ${concat("'channel-'", text(`1 + (n % ${CHANNELS})`))},
        CASE WHEN n % 10 = 0 THEN 'vip' ELSE 'default' END,
        '10.0.0.1',
        ${concat("'req-'", text('n'))},
        '{"model_ratio":1,"group_ratio":1,"completion_ratio":1}'`;
    const from = start + 1;
    const to = start + count;
    if (dialect === 'postgres') {
      await sql
        .raw(`INSERT INTO logs (${cols}) ${select} FROM generate_series(${from}::bigint, ${to}::bigint) AS n`)
        .execute(q);
    } else {
      await sql
        .raw(
          `INSERT INTO logs (${cols}) WITH RECURSIVE seq(n) AS (SELECT ${from} UNION ALL SELECT n + 1 FROM seq WHERE n < ${to}) ${select} FROM seq`,
        )
        .execute(q);
    }
    process.stdout.write(`\r[bench:logs] filled ${to.toLocaleString('en')} / ${rows.toLocaleString('en')} rows`);
  }
  process.stdout.write('\n');
  if (dialect === 'postgres') await sql.raw('ANALYZE logs').execute(q);
  if (dialect === 'mysql') await sql.raw('ANALYZE TABLE logs').execute(q);
  if (dialect === 'sqlite') await sql.raw('ANALYZE').execute(q);
}

async function median(run: () => Promise<unknown>): Promise<number> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < repeat; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

async function main(): Promise<void> {
  const { target, drop } = await throwawayTarget();
  const db = await openDatabase(target);
  try {
    await migrateToLatest(db);
    const filled = performance.now();
    await fill(db);
    const fillSeconds = (performance.now() - filled) / 1000;
    const logs = createRepositories(db).logs;
    const week = NOW - 7 * DAY;
    const day = NOW - DAY;
    // The filters people use on the log page: a page of ten rows plus the total, as the API asks for them.
    const cases: Array<[string, LogFilter, 'list' | 'stat']> = [
      ['admin, all logs, newest page', {}, 'list'],
      ['admin, last 24 h', { startTimestamp: day, endTimestamp: NOW }, 'list'],
      ['admin, one model, last 7 days', { modelName: 'model-7', startTimestamp: week }, 'list'],
      ['admin, one channel, last 7 days', { channelId: 3, startTimestamp: week }, 'list'],
      ['admin, one username', { username: 'user42' }, 'list'],
      ['admin, errors (type 5), last 7 days', { type: 5, startTimestamp: week }, 'list'],
      ['user, own logs, newest page', { userId: 42 }, 'list'],
      ['user, own logs, one token, last 24 h', { userId: 42, tokenName: 'token-1', startTimestamp: day }, 'list'],
      ['user, statistics (quota, rpm, tpm)', { userId: 42 }, 'stat'],
      ['admin, statistics, last 24 h', { startTimestamp: day, endTimestamp: NOW }, 'stat'],
    ];
    const lines = ['| query | matching rows | median |', '| --- | --- | --- |'];
    for (const [title, filter, kind] of cases) {
      const ms = await median(() => (kind === 'list' ? logs.list(filter, 0, 10) : logs.stat(filter, NOW)));
      // Shown so a fast figure can be checked against how much the query really had to look at.
      const matching = (await logs.list(filter, 0, 1)).total.toLocaleString('en');
      lines.push(`| ${title} | ${matching} | ${ms.toFixed(1)} ms |`);
      console.log(`[bench:logs] ${title}: ${ms.toFixed(1)} ms`);
    }
    const report = [
      `# Usage-log queries over ${rows.toLocaleString('en')} rows (${dialect})`,
      '',
      `Command: \`npm run bench:logs -- --dialect ${dialect} --rows ${rows}\`, ${new Date().toISOString()}.`,
      `Filled in ${fillSeconds.toFixed(1)} s. Each query: median of ${repeat} runs after one warm-up, a page of 10 rows plus the`,
      'total count (what the log page asks for), through the server’s own repository code.',
      '',
      ...lines,
      '',
    ].join('\n');
    const out = resolve(import.meta.dirname, 'results');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, `logs-${dialect}.md`), report);
    console.log(`\n${report}`);
  } finally {
    await db.close();
    await drop();
  }
}

await main();
