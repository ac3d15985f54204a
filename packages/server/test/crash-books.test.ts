import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/connection.js';
import { parseDatabaseTarget } from '../src/db/dsn.js';
import { type ChildServer, startChildServer } from './helpers/child-server.js';
import { ApiClient, ROOT, setupAndLogin } from './helpers/client.js';
import { availableDialects, createTestDatabase, type TestDatabase } from './helpers/databases.js';
import { addChannel, addToken } from './helpers/relay.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

/**
 * The built server killed with SIGKILL at random moments under mixed load (streams, whole answers, failures), then
 * started again on the same database, twenty times per engine. After every restart the books must agree: each
 * balance equals its start minus the charges logged against it, the used totals equal the logged charges, and
 * every request answered more than one flush interval (plus the time a flush takes) before the kill is in the log.
 */

const CYCLES = 20;
const FLUSH_SECONDS = 1;
/** A flush begins within one interval and takes a moment to commit; under load on two cores, give it this much. */
const FLUSH_SLACK_MS = FLUSH_SECONDS * 1000 + 1000;
const WORKERS = 6;

async function startNode(database: TestDatabase): Promise<ChildServer> {
  return startChildServer({ ...database.env, BATCH_UPDATE_INTERVAL: String(FLUSH_SECONDS) });
}

interface Answered {
  requestId: string;
  at: number;
}

/** Sends requests of every kind until told to stop; records each one answered in full, with its request id. */
async function load(baseUrl: string, keys: string[], stop: { now: boolean }, answered: Answered[]): Promise<void> {
  const one = async (worker: number, n: number) => {
    const key = keys[(worker + n) % keys.length]!;
    const kind = (worker * 7 + n) % 5;
    const stream = kind === 0 || kind === 1;
    const model = kind === 4 ? 'broken-model' : 'gpt-4o';
    const response = await fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model,
        stream,
        max_tokens: 1000,
        ...(stream ? { stream_options: { include_usage: true } } : {}),
        messages: [{ role: 'user', content: `request ${worker}-${n}: say a few words` }],
      }),
    });
    const body = await response.text();
    const requestId = response.headers.get('x-oneapi-request-id') ?? '';
    const complete = response.ok && (!stream || body.includes('[DONE]'));
    if (complete && requestId) answered.push({ requestId, at: Date.now() });
  };
  await Promise.all(
    Array.from({ length: WORKERS }, async (_, worker) => {
      for (let n = 0; !stop.now; n++) await one(worker, n).catch(() => {});
    }),
  );
}

interface Books {
  users: Array<{ id: number; quota: number; used: number; logged: number }>;
  tokens: Array<{ id: number; remain: number; used: number; logged: number }>;
  requestIds: Set<string>;
}

async function readBooks(database: TestDatabase): Promise<Books> {
  const db = await openDatabase(parseDatabaseTarget(database.env.SQL_DSN, database.env.SQLITE_PATH));
  try {
    const q = db.kysely;
    const users = await q
      .selectFrom('users')
      .select(['id', 'quota', 'used_quota'])
      .select((eb) =>
        eb
          .selectFrom('logs')
          .whereRef('logs.user_id', '=', 'users.id')
          .where('logs.type', '=', 2)
          .select(sql<number>`coalesce(sum(quota), 0)`.as('s'))
          .as('logged'),
      )
      .execute();
    const tokens = await q
      .selectFrom('tokens')
      .select(['id', 'remain_quota', 'used_quota'])
      .select((eb) =>
        eb
          .selectFrom('logs')
          .whereRef('logs.token_id', '=', 'tokens.id')
          .where('logs.type', '=', 2)
          .select(sql<number>`coalesce(sum(quota), 0)`.as('s'))
          .as('logged'),
      )
      .execute();
    const ids = await q.selectFrom('logs').select('request_id').where('type', '=', 2).execute();
    return {
      users: users.map((u) => ({
        id: u.id,
        quota: Number(u.quota),
        used: Number(u.used_quota),
        logged: Number(u.logged),
      })),
      tokens: tokens.map((t) => ({
        id: t.id,
        remain: Number(t.remain_quota),
        used: Number(t.used_quota),
        logged: Number(t.logged),
      })),
      requestIds: new Set(ids.map((row) => row.request_id)),
    };
  } finally {
    await db.close();
  }
}

const dialects = await availableDialects();

describe.each(dialects)('books after SIGKILL under load (%s)', (dialect) => {
  let mock: MockUpstream;
  let database: TestDatabase;

  beforeAll(async () => {
    mock = await startMockUpstream();
    // Streams take a while, so kills land in the middle of them as often as between requests.
    mock.setDefault('openai.chat', { kind: 'ok', text: 'one two three four five six seven eight', chunkDelayMs: 25 });
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await mock?.close();
    await database?.drop();
  });

  it(`keeps balances equal to start minus logged charges through ${CYCLES} kills`, { timeout: 600_000 }, async () => {
    let node = await startNode(database);
    const root = await setupAndLogin(node.baseUrl);
    await addChannel(root, { type: 1, key: 'k', base_url: mock.baseUrl, models: 'gpt-4o' });
    // Nothing listens on port 9 here: every call to this channel fails, and its reservation must come back.
    await addChannel(root, { type: 1, key: 'k', base_url: 'http://127.0.0.1:9', models: 'broken-model' });
    // Prices of their own, so the test does not depend on the defaults.
    const saved = await root.put('/api/option/', {
      key: 'ModelRatio',
      value: JSON.stringify({ 'gpt-4o': 1.25, 'broken-model': 1 }),
    });
    expect(saved.success).toBe(true);
    const keys = [await addToken(root, { remain_quota: 500_000_000 }), await addToken(root, { unlimited_quota: true })];
    const start = await readBooks(database);
    const startOf = new Map([
      ...start.users.map((u) => [`user:${u.id}`, u.quota + u.used] as const),
      ...start.tokens.map((t) => [`token:${t.id}`, t.remain + t.used] as const),
    ]);
    let answeredInAll = 0;

    for (let cycle = 0; cycle < CYCLES; cycle++) {
      // Answers of earlier cycles are not compared with this kill: the last of them were lost with the last one.
      const answered: Answered[] = [];
      const stop = { now: false };
      const running = load(node.baseUrl, keys, stop, answered);
      // A random moment: sometimes during the first requests, sometimes after several flushes.
      await new Promise((done) => setTimeout(done, 300 + Math.floor(Math.random() * 2200)));
      const killedAt = await node.kill();
      stop.now = true;
      await running;
      node = await startNode(database);

      const books = await readBooks(database);
      for (const user of books.users) {
        // Balance plus used is the start for every user: nothing charged without a log, no log without its charge.
        expect({ cycle, user: user.id, total: user.quota + user.used }).toEqual({
          cycle,
          user: user.id,
          total: startOf.get(`user:${user.id}`),
        });
        expect({ cycle, user: user.id, used: user.used }).toEqual({ cycle, user: user.id, used: user.logged });
      }
      for (const token of books.tokens) {
        expect({ cycle, token: token.id, total: token.remain + token.used }).toEqual({
          cycle,
          token: token.id,
          total: startOf.get(`token:${token.id}`),
        });
        expect({ cycle, token: token.id, used: token.used }).toEqual({ cycle, token: token.id, used: token.logged });
      }
      const old = answered.filter((a) => a.at < killedAt - FLUSH_SLACK_MS);
      const missing = old.filter((a) => !books.requestIds.has(a.requestId));
      expect({ cycle, missing: missing.length }).toEqual({ cycle, missing: 0 });
      answeredInAll += answered.length;
    }
    // The load really ran: many answers, and the failing model really failed without charges.
    expect(answeredInAll).toBeGreaterThan(CYCLES * 10);

    // No reservation outlived its process: the whole balance can be reserved again right after the last restart.
    const client = new ApiClient(node.baseUrl);
    await client.login(ROOT.username, ROOT.password);
    const self = await client.get<{ quota: number }>('/api/user/self');
    const final = await readBooks(database);
    const rootBooks = final.users.find((u) => u.id === client.userId)!;
    expect(self.data.quota).toBe(rootBooks.quota);
    await node.kill();
  });
});
