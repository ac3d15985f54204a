import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildServer, startChildServer } from './helpers/child-server.js';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { REDIS_URL } from './helpers/databases.js';
import { requireRedisInCi } from './helpers/redis.js';
import { addChannel, addToken } from './helpers/relay.js';
import { startTestServer, TEST_SESSION_SECRET, type TestServer } from './helpers/server.js';
import { until } from './helpers/wait.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

const hasRedis = await requireRedisInCi('the dead-node reservation test is skipped (it runs in CI)');

// 0.002 per call × 500 000 quota per unit = 1 000 quota per request, reserved and settled alike.
const PER_CALL = 1000;
const TTL_SECONDS = 2;

describe.skipIf(!hasRedis)('a node killed with reservations open in Redis', () => {
  let live: TestServer;
  let doomed: ChildServer | undefined;
  let mock: MockUpstream;
  let root: ApiClient;
  const aborts: AbortController[] = [];

  beforeAll(async () => {
    mock = await startMockUpstream();
    const env = { REDIS_CONN_STRING: REDIS_URL, NODE_HEARTBEAT_TTL: String(TTL_SECONDS) };
    live = await startTestServer('sqlite', env);
    root = await setupAndLogin(live.baseUrl);
    await addChannel(root, { type: 1, key: 'sk-shared', base_url: mock.baseUrl, models: 'per-call-model' });
    await root.put('/api/option/', { key: 'ModelPrice', value: '{"per-call-model": 0.002}' });
    // Started after the setup, so it loads the channel and the price at start.
    // The same secret as the in-process node, or it could not read the channel's key.
    doomed = await startChildServer({
      ...live.database.env,
      ...env,
      BATCH_UPDATE_INTERVAL: '1',
      SESSION_SECRET: TEST_SESSION_SECRET,
    });
  });
  afterAll(async () => {
    for (const abort of aborts) abort.abort();
    await doomed?.kill();
    await live?.close();
    await mock?.close();
  });

  const call = (baseUrl: string, key: string, signal?: AbortSignal) =>
    fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'per-call-model', messages: [{ role: 'user', content: 'hi' }] }),
      signal,
    });

  /** A request whose upstream never answers: its reservation stays open until it is aborted or its node dies. */
  const held = (baseUrl: string, key: string) => {
    const abort = new AbortController();
    aborts.push(abort);
    void call(baseUrl, key, abort.signal).catch(() => {});
    return abort;
  };

  it("frees the dead node's reservations, and only those, once its heartbeat expires", {
    timeout: 60_000,
  }, async () => {
    const key = await addToken(root, { remain_quota: 3.5 * PER_CALL });
    mock.enqueue('openai.chat', { kind: 'hang' }, { kind: 'hang' }, { kind: 'hang' });
    held(doomed!.baseUrl, key);
    held(doomed!.baseUrl, key);
    await until(() => mock.requests.length === 2, { what: 'two requests held on the doomed node' });
    const ownHeld = held(live.baseUrl, key);
    await until(() => mock.requests.length === 3, { what: 'one request held on the live node' });

    // 3 000 of 3 500 are reserved across the two nodes: a fourth request does not fit.
    expect((await call(live.baseUrl, key)).status).toBe(403);

    await doomed!.kill();
    // Once the dead node's key expires, the live node rebuilds the balance without its 2 000.
    await until(async () => (await call(live.baseUrl, key)).status === 200, {
      timeoutMs: 15_000,
      everyMs: 250,
      what: "the dead node's reservations freed",
    });
    // 3 500 - 1 000 (still held here) - 1 000 (charged) = 1 500: one more fits, then no more. Had the rebuild dropped
    // the live node's own reservation too, a third would fit.
    expect((await call(live.baseUrl, key)).status).toBe(200);
    expect((await call(live.baseUrl, key)).status).toBe(403);

    ownHeld.abort();
    await until(async () => (await call(live.baseUrl, key)).status === 200, {
      what: 'the aborted request refunded',
    });
    await live.ctx.ledger.flush();
    const token = await live.ctx.repos.tokens.findByKey(key.slice(3));
    // Three requests answered and charged; the dead node's two never were.
    expect(token).toMatchObject({ remain_quota: 0.5 * PER_CALL, used_quota: 3 * PER_CALL });
  });
});
