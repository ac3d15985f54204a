import { periodBounds } from '@gateway/shared';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin, signedInUser } from './helpers/client.js';
import { availableDialects, REDIS_URL } from './helpers/databases.js';
import { PER_CALL_QUOTA, priceCallModel, rawChat, setClock } from './helpers/limits.js';
import { requireRedisInCi } from './helpers/redis.js';
import { addChannel, addToken } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { until } from './helpers/wait.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

const hasRedis = await requireRedisInCi('the Redis data-loss tests are skipped (they run in CI)');
const dialects = hasRedis ? await availableDialects() : [];

/**
 * A Redis database of this file's own, emptied with FLUSHDB as a restart without persistence would empty it, so no
 * other test's keys go with it (several files share the Redis at REDIS_URL).
 */
function dedicatedRedisUrl(index: number): string {
  const url = new URL(REDIS_URL);
  url.pathname = `/${index}`;
  return url.toString();
}
const LOSS_URL = dedicatedRedisUrl(13);

/** Upstream answers take this long, so a request can be held in flight while Redis loses everything. */
const SLOW_MS = 2_000;

describe.skipIf(!hasRedis).each(dialects)(
  'a node whose Redis loses its data (%s): nothing already spent becomes spendable again',
  (dialect) => {
    let server: TestServer;
    let mock: MockUpstream;
    let root: ApiClient;
    let redis: Redis;
    let users = 0;

    /** A request that reaches the upstream and stays there until SLOW_MS passed; `answer` is its status. */
    const inFlight = async (key: string): Promise<{ answer: Promise<number> }> => {
      mock.enqueue('openai.chat', { kind: 'ok', delayMs: SLOW_MS });
      const arrived = mock.requests.length + 1;
      const answer = rawChat(server, key).then((reply) => reply.status);
      await until(() => mock.requests.length >= arrived, { what: 'the slow request at the upstream' });
      // Wrapped: an async function returning the promise itself would wait for it.
      return { answer };
    };

    beforeAll(async () => {
      redis = new Redis(LOSS_URL, { lazyConnect: true, maxRetriesPerRequest: 0 });
      await redis.connect();
      mock = await startMockUpstream();
      // Nothing is written unless a test flushes: it decides which spends are in the database and which pending.
      server = await startTestServer(dialect, { REDIS_CONN_STRING: LOSS_URL, BATCH_UPDATE_INTERVAL: '60' });
      root = await setupAndLogin(server.baseUrl);
      await addChannel(root, { type: 1, key: 'sk-upstream', base_url: mock.baseUrl, models: 'per-call-model' });
      await priceCallModel(root);
    });
    afterAll(async () => {
      await server?.close();
      await mock?.close();
      redis?.disconnect();
    });
    beforeEach(() => mock.reset());

    it('a spent daily budget stays spent: its counter is rebuilt from the database, unwritten spends and requests in flight', async () => {
      const day = periodBounds('day', Date.UTC(2033, 2, 3, 12));
      setClock([server], day.start + 3_600_000);
      // 2.9 requests' worth: two fit, a third would pass the budget.
      const budget = 2.9 * PER_CALL_QUOTA;
      const key = await addToken(root, {
        remain_quota: 100 * PER_CALL_QUOTA,
        budget_period: 'day',
        budget_quota: budget,
      });
      expect((await rawChat(server, key)).status).toBe(200);
      // The first spend is in the database; the token cached on this node still says 0 was spent.
      await server.ctx.limits.budgets.flush();
      const slow = await inFlight(key);

      await redis.flushdb();
      const afterLoss = await rawChat(server, key);
      expect(afterLoss.status).toBe(429);
      expect(afterLoss.body.error).toMatchObject({ code: 'budget_exceeded' });
      expect(await slow.answer).toBe(200);

      // Lost again, now with the second spend settled but not written: still spent.
      await redis.flushdb();
      const again = await rawChat(server, key);
      expect(again.status).toBe(429);
      expect(mock.requests).toHaveLength(2);

      await server.ctx.limits.budgets.flush();
      const row = (await server.ctx.repos.tokens.findByKey(key.slice(3)))!;
      expect(row).toMatchObject({ budget_used: 2 * PER_CALL_QUOTA, budget_period_start: day.start });
      expect(Number(row.budget_used)).toBeLessThanOrEqual(budget);
    });

    it('a spent user balance stays spent: rebuilt from the database and this node’s unwritten changes, reservations in flight included', async () => {
      const name = `loss-${++users}-${Date.now().toString(36)}`;
      const owner = await signedInUser(server.baseUrl, server.ctx.repos, name);
      const start = 3.5 * PER_CALL_QUOTA;
      await server.ctx.repos.users.update(owner.userId!, { quota: start });
      const key = await addToken(owner, { unlimited_quota: true });

      expect((await rawChat(server, key)).status).toBe(200);
      await server.ctx.ledger.flush();
      const slow = await inFlight(key);

      await redis.flushdb();
      // 3 500 - 1 000 written - 1 000 reserved leaves room for exactly one more.
      expect((await rawChat(server, key)).status).toBe(200);
      const refused = await rawChat(server, key);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({ code: 'insufficient_user_quota' });
      expect(await slow.answer).toBe(200);

      await redis.flushdb();
      expect((await rawChat(server, key)).status).toBe(403);
      expect(mock.requests).toHaveLength(3);

      await server.ctx.ledger.flush();
      await server.ctx.logWriter.flush();
      const user = (await server.ctx.repos.users.findById(owner.userId!))!;
      expect(Number(user.quota)).toBe(start - 3 * PER_CALL_QUOTA);
      const { rows } = await sql<{ total: number | null }>`select sum(quota) as total from logs where user_id = ${
        owner.userId
      } and type = 2`.execute(server.ctx.db.kysely);
      expect(Number(rows[0]?.total)).toBe(3 * PER_CALL_QUOTA);
    });
  },
);
