import { periodBounds } from '@gateway/shared';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SharedBalances } from '../src/billing/shared-balances.js';
import { ApiClient, ROOT, setupAndLogin } from './helpers/client.js';
import { REDIS_URL } from './helpers/databases.js';
import { PER_CALL_MODEL, PER_CALL_QUOTA, priceCallModel, rawChat, setClock, statusCounts } from './helpers/limits.js';
import { requireRedisInCi } from './helpers/redis.js';
import { startHoldingRelay } from './helpers/redis-process.js';
import { addChannel, addToken } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { startTcpRelay } from './helpers/tcp-relay.js';
import { until } from './helpers/wait.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

const hasRedis = await requireRedisInCi('the Redis-down-at-start tests are skipped (they run in CI)');

const redisAddress = new URL(REDIS_URL);
const redisHost = redisAddress.hostname;
const redisPort = Number(redisAddress.port || 6379);
/** Measured: a refused connection is seen at once, a Redis that never answers after 1.5 s (START_WAIT_MS). */
const START_BOUND_MS = 5_000;
const day = periodBounds('day', Date.UTC(2034, 4, 5, 12));

async function readiness(node: TestServer): Promise<{ httpStatus: number; status: string; degraded?: string[] }> {
  const response = await fetch(`${node.baseUrl}/readyz`);
  return { httpStatus: response.status, ...((await response.json()) as { status: string; degraded?: string[] }) };
}

async function redisUpGauge(node: TestServer): Promise<string | undefined> {
  const text = await (await fetch(`${node.baseUrl}/metrics`)).text();
  return text.split('\n').find((line) => line.startsWith('gateway_redis_up '));
}

describe.skipIf(!hasRedis)('a node started while its Redis is down', () => {
  let relay: Awaited<ReturnType<typeof startTcpRelay>>;
  let inspect: Redis;
  let mock: MockUpstream;
  /** Its Redis goes through `relay`, shut when it starts. */
  let alone: TestServer;
  /** Started with Redis up, on the same database. */
  let other: TestServer;
  let nodes: TestServer[];
  let root: ApiClient;
  /** Signed in on `alone` while it had no Redis. */
  let admin: ApiClient;
  let startMs = 0;
  /** Worth 10 requests, 2 of them spent on `alone` while it had no Redis. */
  let paid = '';

  const budgetKeyOf = async (node: TestServer, key: string) => {
    const token = (await node.ctx.repos.tokens.findByKey(key.slice(3)))!;
    const namespace = SharedBalances.namespaceFor(node.ctx.config.database);
    return `gateway:${namespace}:limits:budget:${token.id}:day:${day.start}`;
  };

  beforeAll(async () => {
    relay = await startTcpRelay(redisHost, redisPort);
    // From here the relay's port refuses connections, as a Redis that is not running does.
    await relay.stop();
    inspect = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0 });
    await inspect.connect();
    mock = await startMockUpstream();
    // Nothing reloads on a timer and nothing is written unless a test flushes: what moves, moves through Redis.
    const env = { BATCH_UPDATE_INTERVAL: '60', SYNC_FREQUENCY: '3600' };
    other = await startTestServer('sqlite', { ...env, REDIS_CONN_STRING: REDIS_URL });
    root = await setupAndLogin(other.baseUrl);
    await addChannel(root, { type: 1, key: 'sk-upstream', base_url: mock.baseUrl, models: PER_CALL_MODEL });
    await priceCallModel(root);
    const started = Date.now();
    alone = await startTestServer(
      'sqlite',
      { ...env, REDIS_CONN_STRING: `redis://127.0.0.1:${relay.port}` },
      other.database,
    );
    startMs = Date.now() - started;
    nodes = [alone, other];
    setClock(nodes, day.start + 3_600_000);
  });
  afterAll(async () => {
    await alone?.close();
    await other?.close();
    await mock?.close();
    inspect?.disconnect();
    await relay?.stop();
  });

  it('starts at once and serves relay requests and console sign-ins from its own memory, reporting Redis degraded', async () => {
    expect(startMs).toBeLessThan(START_BOUND_MS);
    expect(alone.ctx.redis!.health.up).toBe(false);
    expect(await readiness(alone)).toMatchObject({ httpStatus: 200, status: 'degraded', degraded: ['redis'] });
    expect(await redisUpGauge(alone)).toBe('gateway_redis_up 0');

    admin = new ApiClient(alone.baseUrl);
    await admin.login(ROOT.username, ROOT.password);
    expect((await admin.get('/api/user/self')).success).toBe(true);
    paid = await addToken(admin, { remain_quota: 10 * PER_CALL_QUOTA });
    expect(statusCounts(await Promise.all([rawChat(alone, paid), rawChat(alone, paid)]))).toEqual({ 200: 2 });
  });

  it('uses Redis once it answers: reported up, its budget spends handed over, limits and announcements shared', async () => {
    // A daily budget of 2.9 requests, spent on this node alone while Redis is away.
    const budgeted = await addToken(admin, {
      remain_quota: 100 * PER_CALL_QUOTA,
      budget_period: 'day',
      budget_quota: 2.9 * PER_CALL_QUOTA,
    });
    expect(statusCounts([await rawChat(alone, budgeted), await rawChat(alone, budgeted)])).toEqual({ 200: 2 });
    expect((await rawChat(alone, budgeted)).status).toBe(429);

    await relay.restart();
    await until(async () => (await readiness(alone)).status === 'ok', { timeoutMs: 10_000, what: 'Redis seen up' });
    expect(await readiness(alone)).toMatchObject({ httpStatus: 200, status: 'ok' });
    expect(await redisUpGauge(alone)).toBe('gateway_redis_up 1');

    // The spends are still this node's unwritten ones: it seeds the counter in Redis from the database and them as
    // soon as Redis answers, so the other node cannot start it from the database alone.
    const budgetKey = await budgetKeyOf(alone, budgeted);
    await until(async () => (await inspect.exists(budgetKey)) === 1, { what: 'the budget handed to Redis' });
    expect(Number(await inspect.get(budgetKey))).toBe(2 * PER_CALL_QUOTA);
    const refused = await rawChat(other, budgeted);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'budget_exceeded' });

    // The balance spent alone is built in Redis from the database (nothing written yet) and this node's changes,
    // then spent on the other node, and the books agree once both have written.
    const paidToken = (await alone.ctx.repos.tokens.findByKey(paid.slice(3)))!;
    const namespace = SharedBalances.namespaceFor(alone.ctx.config.database);
    const balanceKey = `gateway:${namespace}:balance:token:${paidToken.id}`;
    expect(paidToken.remain_quota).toBe(10 * PER_CALL_QUOTA);
    await until(async () => Number(await inspect.hget(balanceKey, 'v')) === 8 * PER_CALL_QUOTA, {
      what: 'the balance rebuilt in Redis',
    });
    expect((await rawChat(other, paid)).status).toBe(200);
    expect(Number(await inspect.hget(balanceKey, 'v'))).toBe(7 * PER_CALL_QUOTA);
    for (const node of nodes) await node.ctx.ledger.flush();
    expect((await alone.ctx.repos.tokens.findByKey(paid.slice(3)))!.remain_quota).toBe(7 * PER_CALL_QUOTA);

    // Limits are counted in Redis by both nodes again: 3 per minute across them, not per node.
    const limited = await addToken(admin, { rpm_limit: 3, unlimited_quota: true });
    const spread = await Promise.all(Array.from({ length: 8 }, (_, index) => rawChat(nodes[index % 2]!, limited)));
    expect(statusCounts(spread)).toEqual({ 200: 3, 429: 5 });

    // Subscriptions asked for while Redis was down are in place. Once any reload the recovery started is over, a
    // channel added on the other node can only reach this one through Redis pub/sub (no timer reloads here).
    await until(() => alone.ctx.redis!.subscriber.status === 'ready', { what: 'subscriber connected' });
    await alone.ctx.channelCache.reload();
    await addChannel(root, { type: 1, key: 'sk-upstream', base_url: mock.baseUrl, models: 'announced-model' });
    await until(() => alone.ctx.channelCache.candidates('default', 'announced-model').length === 1, {
      timeoutMs: 3_000,
      what: 'the channel announced through Redis',
    });

    // The session made while Redis was down lives in the database, so the other node knows it too.
    const self = await fetch(`${other.baseUrl}/api/user/self`, {
      headers: { cookie: admin.sessionCookie, 'new-api-user': String(admin.userId) },
    });
    expect(((await self.json()) as { success: boolean }).success).toBe(true);
  });

  it('spends made alone during a later outage are added to the counter Redis kept', async () => {
    const budgeted = await addToken(admin, {
      remain_quota: 100 * PER_CALL_QUOTA,
      budget_period: 'day',
      budget_quota: 3.9 * PER_CALL_QUOTA,
    });
    // One spend through Redis on the other node, written to the database (so the cut-off node knows of it).
    expect((await rawChat(other, budgeted)).status).toBe(200);
    await other.ctx.limits.budgets.flush();
    const budgetKey = await budgetKeyOf(other, budgeted);
    expect(Number(await inspect.get(budgetKey))).toBe(PER_CALL_QUOTA);

    await relay.stop();
    await until(() => !alone.ctx.redis!.health.up, { what: 'Redis seen down' });
    const local = [await rawChat(alone, budgeted), await rawChat(alone, budgeted), await rawChat(alone, budgeted)];
    expect(statusCounts(local)).toEqual({ 200: 2, 429: 1 });

    await relay.restart();
    await until(() => alone.ctx.redis!.health.up, { timeoutMs: 10_000, what: 'Redis seen up' });
    await until(async () => Number(await inspect.get(budgetKey)) === 3 * PER_CALL_QUOTA, {
      what: 'the outage spends added in Redis',
    });
    expect((await rawChat(other, budgeted)).status).toBe(429);
    expect((await rawChat(alone, budgeted)).status).toBe(429);
  });
});

describe.skipIf(!hasRedis)('a node whose Redis accepts connections but never answers at start', () => {
  it('starts within the bound, serves, and shares once Redis answers', async () => {
    const holding = await startHoldingRelay(redisPort);
    holding.hold();
    const mock = await startMockUpstream();
    const started = Date.now();
    const node = await startTestServer('sqlite', { REDIS_CONN_STRING: `redis://127.0.0.1:${holding.port}` });
    try {
      expect(Date.now() - started).toBeLessThan(START_BOUND_MS);
      expect(node.ctx.redis!.health.up).toBe(false);
      const root = await setupAndLogin(node.baseUrl);
      await addChannel(root, { type: 1, key: 'sk-upstream', base_url: mock.baseUrl, models: PER_CALL_MODEL });
      await priceCallModel(root);
      const key = await addToken(root, { remain_quota: 10 * PER_CALL_QUOTA });
      const answered = Date.now();
      expect((await rawChat(node, key)).status).toBe(200);
      expect(Date.now() - answered).toBeLessThan(3_000);
      holding.release();
      await until(() => node.ctx.redis!.health.up, { timeoutMs: 10_000, what: 'Redis seen up' });
      expect(await readiness(node)).toMatchObject({ httpStatus: 200, status: 'ok' });
    } finally {
      await node.close();
      await mock.close();
      await holding.close();
    }
  });
});
