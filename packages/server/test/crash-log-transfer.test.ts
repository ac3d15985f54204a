import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../src/db/connection.js';
import { parseDatabaseTarget } from '../src/db/dsn.js';
import { type ChildServer, startChildServer } from './helpers/child-server.js';
import { setupAndLogin } from './helpers/client.js';
import {
  availableDialects,
  createTestDatabase,
  type DialectName,
  logDatabaseEnv,
  type TestDatabase,
} from './helpers/databases.js';
import { addChannel, addToken } from './helpers/relay.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

/**
 * The built server with a separate log database (LOG_SQL_DSN), killed with SIGKILL at random moments under load
 * while its mover copies rows out of the main database's outbox. Read between the kill and the restart (nothing
 * moves then), the log rows are those in the log database plus the outbox rows above the watermark; they must agree
 * with the balances exactly as without a log database (crash-books.test.ts), and no request may be logged twice.
 */

const CYCLES = 10;
const WORKERS = 4;

const dialects = await availableDialects();
const PAIRS = (
  [
    ['sqlite', 'postgres'],
    ['postgres', 'mysql'],
  ] as Array<[DialectName, DialectName]>
).filter(([main, logs]) => dialects.includes(main) && dialects.includes(logs));

const open = (database: TestDatabase): Promise<Db> =>
  openDatabase(parseDatabaseTarget(database.env.SQL_DSN, database.env.SQLITE_PATH));

interface ConsumeRow {
  user_id: number;
  token_id: number;
  quota: number;
  request_id: string;
}

/** Every consume row once: the log database's, and the main outbox's not yet covered by the watermark. */
async function loggedRows(main: Db, logs: Db): Promise<ConsumeRow[]> {
  const identity = await main.kysely
    .selectFrom('job_leases')
    .select('holder')
    .where('name', '=', 'log-transfer-source')
    .executeTakeFirst();
  const mark = identity
    ? await logs.kysely
        .selectFrom('log_transfers')
        .select('last_id')
        .where('source', '=', identity.holder)
        .executeTakeFirst()
    : undefined;
  const watermark = Number(mark?.last_id ?? 0);
  const columns = ['user_id', 'token_id', 'quota', 'request_id'] as const;
  const moved = await logs.kysely.selectFrom('logs').select(columns).where('type', '=', 2).execute();
  const waiting = await main.kysely
    .selectFrom('logs')
    .select(columns)
    .where('type', '=', 2)
    .where('id', '>', watermark)
    .execute();
  return [...moved, ...waiting].map((row) => ({ ...row, quota: Number(row.quota) }));
}

describe.each(PAIRS)('books after SIGKILL with main on %s and logs on %s', (mainDialect, logDialect) => {
  let mock: MockUpstream;
  let main: TestDatabase;
  let logs: TestDatabase;

  beforeAll(async () => {
    mock = await startMockUpstream();
    mock.setDefault('openai.chat', { kind: 'ok', text: 'one two three four five', chunkDelayMs: 20 });
    main = await createTestDatabase(mainDialect);
    logs = await createTestDatabase(logDialect);
  });
  afterAll(async () => {
    await mock?.close();
    await main?.drop();
    await logs?.drop();
  });

  it(`logs every charge exactly once through ${CYCLES} kills`, { timeout: 600_000 }, async () => {
    const env = { ...main.env, ...logDatabaseEnv(logs), BATCH_UPDATE_INTERVAL: '1' };
    let node: ChildServer = await startChildServer(env);
    const root = await setupAndLogin(node.baseUrl);
    await addChannel(root, { type: 1, key: 'k', base_url: mock.baseUrl, models: 'gpt-4o' });
    const key = await addToken(root, { remain_quota: 500_000_000 });
    let answered = 0;

    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const stop = { now: false };
      const running = Promise.all(
        Array.from({ length: WORKERS }, async (_, worker) => {
          for (let n = 0; !stop.now; n++) {
            const stream = (worker + n) % 2 === 0;
            const response = await fetch(`${node.baseUrl}/v1/chat/completions`, {
              method: 'POST',
              headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
              body: JSON.stringify({
                model: 'gpt-4o',
                stream,
                ...(stream ? { stream_options: { include_usage: true } } : {}),
                messages: [{ role: 'user', content: `request ${worker}-${n}` }],
              }),
            }).catch(() => null);
            if (response?.ok) {
              await response.text().catch(() => '');
              answered++;
            }
          }
        }),
      );
      await new Promise((done) => setTimeout(done, 500 + Math.floor(Math.random() * 2500)));
      await node.kill();
      stop.now = true;
      await running;

      const [mainDb, logDb] = await Promise.all([open(main), open(logs)]);
      try {
        const rows = await loggedRows(mainDb, logDb);
        const ids = rows.map((row) => row.request_id);
        expect({ cycle, duplicated: ids.length - new Set(ids).size }).toEqual({ cycle, duplicated: 0 });
        const users = await mainDb.kysely.selectFrom('users').select(['id', 'used_quota']).execute();
        for (const user of users) {
          const logged = rows.filter((row) => row.user_id === user.id).reduce((sum, row) => sum + row.quota, 0);
          expect({ cycle, user: user.id, used: Number(user.used_quota) }).toEqual({
            cycle,
            user: user.id,
            used: logged,
          });
        }
        const tokens = await mainDb.kysely.selectFrom('tokens').select(['id', 'used_quota']).execute();
        for (const token of tokens) {
          const logged = rows.filter((row) => row.token_id === token.id).reduce((sum, row) => sum + row.quota, 0);
          expect({ cycle, token: token.id, used: Number(token.used_quota) }).toEqual({
            cycle,
            token: token.id,
            used: logged,
          });
        }
      } finally {
        await Promise.all([mainDb.close(), logDb.close()]);
      }
      node = await startChildServer(env);
    }
    expect(answered).toBeGreaterThan(CYCLES * 5);

    // The mover really moved rows while the nodes ran (on its timer), not only kept them in the outbox.
    await node.kill();
    const [mainDb, logDb] = await Promise.all([open(main), open(logs)]);
    try {
      const moved = await logDb.kysely
        .selectFrom('logs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(moved.n)).toBeGreaterThan(CYCLES * 5);
    } finally {
      await Promise.all([mainDb.close(), logDb.close()]);
    }
  });
});
