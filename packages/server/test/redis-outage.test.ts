import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SharedBalances } from '../src/billing/shared-balances.js';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import {
  PER_CALL_MODEL,
  PER_CALL_QUOTA,
  priceCallModel,
  type RawAnswer,
  rawChat,
  setClock,
  statusCounts,
} from './helpers/limits.js';
import { redisServerAvailable, startHoldingRelay, startRedisProcess } from './helpers/redis-process.js';
import { addChannel, addToken, flushBilling } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { until } from './helpers/wait.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

const canRun = redisServerAvailable('the Redis outage tests are skipped (they run in CI)');
/** No request may take longer than this, whatever Redis does (commands give up after 400 ms). */
const BOUND_MS = 3_000;
const minute = (index: number) => (32_000_000 + index) * 60_000 + 1_000;

const dialects = canRun ? await availableDialects() : [];

describe.skipIf(!canRun).each(dialects)(
  'two nodes on %s when their Redis dies, comes back empty, or stops answering',
  (dialect) => {
    let redis: Awaited<ReturnType<typeof startRedisProcess>>;
    let relay: Awaited<ReturnType<typeof startHoldingRelay>>;
    let inspect: Redis;
    let first: TestServer;
    let second: TestServer;
    let nodes: TestServer[];
    let mock: MockUpstream;
    let root: ApiClient;

    /** A request timed from start to answer. */
    const timed = async (node: TestServer, key: string): Promise<RawAnswer & { ms: number }> => {
      const started = Date.now();
      const answer = await rawChat(node, key);
      return { ...answer, ms: Date.now() - started };
    };
    /** `count` requests over both nodes in turn, at most `parallel` at a time, while `during` runs alongside. */
    const load = async (key: string, count: number, during: () => Promise<void> = async () => {}) => {
      const answers: Array<RawAnswer & { ms: number }> = [];
      let next = 0;
      const worker = async () => {
        for (let index = next++; index < count; index = next++) answers.push(await timed(nodes[index % 2]!, key));
      };
      await Promise.all([...Array.from({ length: 10 }, worker), during()]);
      return answers;
    };
    const bothDown = () => until(() => nodes.every((node) => !node.ctx.redis!.health.up), { what: 'Redis seen down' });
    const bothUp = () =>
      until(() => nodes.every((node) => node.ctx.redis!.health.up), { timeoutMs: 10_000, what: 'Redis seen up' });

    /** Sum of the quota billed in the usage logs for a column's value. */
    const billed = async (column: 'user_id' | 'token_id', id: number) => {
      for (const node of nodes) await flushBilling(node);
      const { rows } = await sql<{ total: number | null }>`select sum(quota) as total from logs where ${sql.ref(
        column,
      )} = ${id} and type = 2`.execute(first.ctx.db.kysely);
      return Number(rows[0]?.total ?? 0);
    };
    const balanceKey = (kind: 'user' | 'token', id: number) =>
      `gateway:${SharedBalances.namespaceFor(first.ctx.config.database)}:balance:${kind}:${id}`;

    /** Every node flushed and nothing open: the books and Redis must agree exactly with the database. */
    const expectExactBooks = async (userId: number, tokenKey: string, userStart: number, tokenStart: number) => {
      const token = (await first.ctx.repos.tokens.findByKey(tokenKey.slice(3)))!;
      const userBilled = await billed('user_id', userId);
      const tokenBilled = await billed('token_id', token.id);
      const user = (await first.ctx.repos.users.findById(userId))!;
      const tokenRow = (await first.ctx.repos.tokens.findByKey(tokenKey.slice(3)))!;
      expect(user.quota).toBe(userStart - userBilled);
      expect(tokenRow.remain_quota).toBe(tokenStart - tokenBilled);
      expect(tokenRow.used_quota).toBe(tokenBilled);
      // Redis was rebuilt: once both nodes have flushed (again), its balances are the database's.
      await until(
        async () => {
          for (const node of nodes) await node.ctx.ledger.flush();
          const [userLive, tokenLive] = await Promise.all([
            inspect.hget(balanceKey('user', userId), 'v'),
            inspect.hget(balanceKey('token', token.id), 'v'),
          ]);
          return Number(userLive) === user.quota && Number(tokenLive) === tokenRow.remain_quota;
        },
        { timeoutMs: 10_000, what: 'Redis balances equal to the database' },
      );
      return { userBilled, tokenBilled };
    };

    beforeAll(async () => {
      redis = await startRedisProcess();
      relay = await startHoldingRelay(redis.port);
      inspect = new Redis({ port: redis.port, lazyConnect: true, maxRetriesPerRequest: 0 });
      inspect.on('error', () => {});
      mock = await startMockUpstream();
      const env = { REDIS_CONN_STRING: `redis://127.0.0.1:${relay.port}`, BATCH_UPDATE_INTERVAL: '1' };
      first = await startTestServer(dialect, env);
      second = await startTestServer(dialect, env, first.database);
      nodes = [first, second];
      root = await setupAndLogin(first.baseUrl);
      await addChannel(root, { type: 1, key: 'sk-upstream', base_url: mock.baseUrl, models: PER_CALL_MODEL });
      await priceCallModel(root);
      await until(() => second.ctx.channelCache.candidates('default', PER_CALL_MODEL).length === 1);
      await until(() => second.ctx.options.get('ModelPrice').includes(PER_CALL_MODEL));
    }, 30_000);
    afterAll(async () => {
      await second?.close();
      await first?.close();
      await mock?.close();
      inspect?.disconnect();
      await relay?.close();
      await redis?.kill();
    });

    it('Redis killed mid-load and restarted empty: nothing hangs, every request is served, the books are exact', async () => {
      const userStart = 1_000 * PER_CALL_QUOTA;
      const tokenStart = 500 * PER_CALL_QUOTA;
      await first.ctx.repos.users.update(root.userId!, { quota: userStart });
      const key = await addToken(root, { remain_quota: tokenStart });
      const before = await load(key, 60);
      const during = await load(key, 80, async () => {
        await new Promise((resolve) => setTimeout(resolve, 100));
        await redis.kill();
      });
      await bothDown();
      const down = await load(key, 40);
      const after = await load(key, 80, async () => {
        await new Promise((resolve) => setTimeout(resolve, 100));
        await redis.restart();
      });
      await bothUp();
      const recovered = await load(key, 20);
      const all = [...before, ...during, ...down, ...after, ...recovered];
      expect(all).toHaveLength(280);
      expect(Math.max(...all.map((answer) => answer.ms))).toBeLessThan(BOUND_MS);
      // The balance suffices for all of them and no limit is set: nothing may be refused, outage or not.
      expect(statusCounts(all)).toEqual({ 200: 280 });
      expect(mock.requests).toHaveLength(280);
      const { userBilled, tokenBilled } = await expectExactBooks(root.userId!, key, userStart, tokenStart);
      expect(userBilled).toBe(280 * PER_CALL_QUOTA);
      expect(tokenBilled).toBe(280 * PER_CALL_QUOTA);
      for (const node of nodes) {
        expect(node.ctx.redis!.health.outages).toBeGreaterThanOrEqual(1);
        expect(node.ctx.redis!.health.fallbacks).toBeGreaterThan(0);
      }
      const metrics = await (await fetch(`${first.baseUrl}/metrics`)).text();
      expect(metrics).toContain('gateway_redis_up 1');
      expect(metrics).toMatch(/gateway_redis_outages_total [1-9]/);
    }, 60_000);

    it('limits are node-local while Redis is down and exact across nodes again after it returns', async () => {
      const key = await addToken(root, { rpm_limit: 5, unlimited_quota: true });
      setClock(nodes, minute(0));
      await redis.kill();
      await bothDown();
      // Each node counts on its own: 5 per node.
      const local = await load(key, 20);
      expect(statusCounts(local)).toEqual({ 200: 10, 429: 10 });
      expect(Math.max(...local.map((answer) => answer.ms))).toBeLessThan(BOUND_MS);
      await redis.restart();
      await bothUp();
      setClock(nodes, minute(1));
      expect(statusCounts(await load(key, 20))).toEqual({ 200: 5, 429: 15 });
    }, 60_000);

    it('console sessions survive a Redis outage and a Redis that comes back empty (the database answers)', async () => {
      const self = async () => {
        const response = await fetch(`${second.baseUrl}/api/user/self`, {
          headers: { cookie: root.sessionCookie, 'new-api-user': String(root.userId) },
        });
        return ((await response.json()) as { success: boolean }).success;
      };
      expect(await self()).toBe(true);
      await redis.kill();
      await bothDown();
      expect(await self()).toBe(true);
      await redis.restart();
      await bothUp();
      expect(await inspect.keys('gateway:session:*')).toEqual([]);
      expect(await self()).toBe(true);
    }, 30_000);

    it('a Redis that stops answering: requests fall back after the command timeout, late commands do not spoil the books', async () => {
      await bothUp();
      const key = await addToken(root, { remain_quota: 100 * PER_CALL_QUOTA });
      const tokenStart = 100 * PER_CALL_QUOTA;
      // Flushed by billed(): the user's row holds everything billed so far.
      const alreadyBilled = await billed('user_id', root.userId!);
      const userStart = Number((await first.ctx.repos.users.findById(root.userId!))!.quota);
      setClock(nodes, minute(2));
      await load(key, 10);
      relay.hold();
      const slow = await load(key, 30);
      expect(Math.max(...slow.map((answer) => answer.ms))).toBeLessThan(BOUND_MS);
      expect(statusCounts(slow)).toEqual({ 200: 30 });
      // The held commands (reservations, settles, flush guards) now run late, after their callers gave up.
      relay.release();
      await bothUp();
      await load(key, 20);
      const { tokenBilled, userBilled } = await expectExactBooks(
        root.userId!,
        key,
        userStart + alreadyBilled,
        tokenStart,
      );
      expect(tokenBilled).toBe(60 * PER_CALL_QUOTA);
      expect(userBilled - alreadyBilled).toBe(60 * PER_CALL_QUOTA);
    }, 60_000);
  },
);
