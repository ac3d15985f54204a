import { periodBounds } from '@gateway/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { availableDialects, REDIS_URL } from './helpers/databases.js';
import {
  PER_CALL_MODEL,
  PER_CALL_QUOTA,
  priceCallModel,
  rawChat,
  refusalText,
  setClock,
  statusCounts,
} from './helpers/limits.js';
import { requireRedisInCi } from './helpers/redis.js';
import { addChannel, addToken } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { until } from './helpers/wait.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

const hasRedis = await requireRedisInCi('the multi-node limit tests are skipped (they run in CI)');

const minute = (index: number, offset = 0) => (31_000_000 + index) * 60_000 + offset;

const dialects = hasRedis ? await availableDialects() : [];

describe.skipIf(!hasRedis).each(dialects)(
  'limits and budgets on two nodes sharing %s and Redis: exact, never multiplied by the nodes',
  (dialect) => {
    let first: TestServer;
    let second: TestServer;
    let nodes: TestServer[];
    let mock: MockUpstream;
    let root: ApiClient;

    /** `count` requests spread over both nodes in turn, all at once. */
    const spread = (key: string, count: number, extra: Record<string, unknown> = {}) =>
      Promise.all(Array.from({ length: count }, (_, index) => rawChat(nodes[index % 2]!, key, extra)));

    beforeAll(async () => {
      mock = await startMockUpstream();
      // Writes only when asked: both nodes share one SQLite file in this process (see multi-node-redis.test.ts).
      const env = { REDIS_CONN_STRING: REDIS_URL, BATCH_UPDATE_INTERVAL: '60' };
      first = await startTestServer(dialect, env);
      second = await startTestServer(dialect, env, first.database);
      nodes = [first, second];
      root = await setupAndLogin(first.baseUrl);
      await addChannel(root, { type: 1, key: 'sk-upstream', base_url: mock.baseUrl, models: PER_CALL_MODEL });
      await priceCallModel(root);
      await until(() => second.ctx.channelCache.candidates('default', PER_CALL_MODEL).length === 1);
      await until(() => second.ctx.options.get('ModelPrice').includes(PER_CALL_MODEL));
    });
    afterAll(async () => {
      await second?.close();
      await first?.close();
      await mock?.close();
    });
    beforeEach(() => mock.reset());

    it('requests per minute: 100 concurrent requests over both nodes serve exactly 10', async () => {
      setClock(nodes, minute(0, 20_000));
      const key = await addToken(root, { rpm_limit: 10, unlimited_quota: true });
      const answers = await spread(key, 100);
      expect(statusCounts(answers)).toEqual({ 200: 10, 429: 90 });
      expect(mock.requests).toHaveLength(10);
      for (const refused of answers.filter((answer) => answer.status === 429)) {
        expect(refused.retryAfter).toBe('40');
        expect(refusalText(refused)).toBe('The API key has reached its limit of 10 requests per minute; retry in 40 s');
      }
      setClock(nodes, minute(1));
      expect(statusCounts(await spread(key, 2))).toEqual({ 200: 2 });
    });

    it('concurrent requests: with a slow upstream exactly 3 of 20 run across both nodes', async () => {
      setClock(nodes, minute(2));
      const key = await addToken(root, { concurrency_limit: 3, unlimited_quota: true });
      mock.setDefault('openai.chat', { kind: 'ok', delayMs: 1500 });
      const answers = await spread(key, 20);
      expect(statusCounts(answers)).toEqual({ 200: 3, 429: 17 });
      expect(answers.find((answer) => answer.status === 429)!.retryAfter).toBe('1');
      // Every slot was released, whichever node held it.
      mock.setDefault('openai.chat', null);
      expect(statusCounts(await spread(key, 3))).toEqual({ 200: 3 });
    });

    it('tokens per minute: a request settled on one node makes room on the other', async () => {
      setClock(nodes, minute(3, 1_000));
      const key = await addToken(root, { tpm_limit: 30, unlimited_quota: true });
      mock.setDefault('openai.chat', { kind: 'ok', usage: { prompt: 5, completion: 5 } });
      const ask = { max_tokens: 10 };
      expect((await rawChat(first, key, ask)).status).toBe(200);
      // 10 settled + 19 estimated = 29: admitted only if the first node's settle reached Redis.
      await until(async () => (await rawChat(second, key, ask)).status === 200, { timeoutMs: 2_000 });
      const refused = await rawChat(first, key, ask);
      expect(refused.status).toBe(429);
      expect(refusalText(refused)).toBe('The API key has reached its limit of 30 tokens per minute; retry in 59 s');
      expect(mock.requests).toHaveLength(2);
    });

    it('a daily budget is never overspent across nodes and starts again at the boundary', async () => {
      const day = periodBounds('day', Date.UTC(2032, 6, 1, 12));
      setClock(nodes, day.end - 10_000);
      const key = await addToken(root, {
        name: 'shared-budget',
        remain_quota: 100 * PER_CALL_QUOTA,
        budget_period: 'day',
        budget_quota: 5 * PER_CALL_QUOTA,
      });
      const answers = await spread(key, 40);
      expect(statusCounts(answers)).toEqual({ 200: 5, 429: 35 });
      const refused = answers.find((answer) => answer.status === 429)!;
      expect(refused.retryAfter).toBe('10');
      expect(refused.body.error).toMatchObject({ code: 'budget_exceeded' });
      // Each node writes what it settled; together they add up to the budget.
      await first.ctx.limits.budgets.flush();
      await second.ctx.limits.budgets.flush();
      expect(await first.ctx.repos.tokens.findByKey(key.slice(3))).toMatchObject({
        budget_used: 5 * PER_CALL_QUOTA,
        budget_period_start: day.start,
      });

      setClock(nodes, day.end + 1_000);
      expect(statusCounts(await spread(key, 8))).toEqual({ 200: 5, 429: 3 });
      await first.ctx.limits.budgets.flush();
      await second.ctx.limits.budgets.flush();
      expect(await first.ctx.repos.tokens.findByKey(key.slice(3))).toMatchObject({
        budget_used: 5 * PER_CALL_QUOTA,
        budget_period_start: day.end,
      });
    });
  },
);
