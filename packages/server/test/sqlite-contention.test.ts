import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { addChannel, addToken, flushBilling, openaiClient } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { startOutsider } from './helpers/sqlite-outsider.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

const MODEL = 'gpt-4o-mini';
const ask = { model: MODEL, messages: [{ role: 'user' as const, content: 'hello' }] };

/** The call's result and when it came back, to prove it waited for the other process. */
async function timed<T>(call: Promise<T>): Promise<{ value: T; at: number }> {
  const value = await call;
  return { value, at: Date.now() };
}

describe('SQLite written by another process at the same time', () => {
  let mock: MockUpstream;
  let server: TestServer;
  let root: ApiClient;
  let key: string;
  let channelId: number;
  let file: string;

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer('sqlite');
    file = server.database.env.SQLITE_PATH;
    root = await setupAndLogin(server.baseUrl);
    channelId = await addChannel(root, { type: 1, key: 'sk-upstream', base_url: mock.baseUrl, models: MODEL });
    key = await addToken(root, { unlimited_quota: true });
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });

  it('waits for a write lock held by the other process: a channel edit, a token and relay requests all succeed', async () => {
    const outsider = startOutsider(file, 'hold', 1500);
    await outsider.said('locked');
    const openai = openaiClient(server, key);
    const [edit, token, ...answers] = await Promise.all([
      // A read then an update in one transaction: this is what answered "database is locked" at once.
      timed(root.put('/api/channel/', { id: channelId, weight: 7 })),
      timed(root.post<Array<{ key: string }>>('/api/token/', { name: 'made-while-locked' })),
      ...Array.from({ length: 3 }, () => timed(openai.chat.completions.create(ask))),
    ]);
    const releasedAt = Number(await outsider.said('released'));
    expect(edit.value).toMatchObject({ status: 200, success: true });
    expect(token.value).toMatchObject({ status: 200, success: true });
    // They waited for the lock rather than failing or racing past it.
    expect(edit.at).toBeGreaterThanOrEqual(releasedAt);
    expect(token.at).toBeGreaterThanOrEqual(releasedAt);
    for (const answer of answers) expect(answer.value.choices[0]!.message.content).toBeTruthy();
    expect((await server.ctx.repos.channels.findById(channelId))?.weight).toBe(7);
    // The usage logs of those requests are written too, the other process's rows beside them.
    await flushBilling(server);
    const { total } = await server.ctx.repos.logs.list({ type: 2 }, 0, 1);
    expect(total).toBe(3);
  });

  it('answers 503 with Retry-After, not 500, when the busy timeout runs out, and serves once the lock is free', async () => {
    // The production wait is 30 s; a short one here lets the other process outlast it.
    const sqlite = server.ctx.db.sqlite!;
    sqlite.pragma('busy_timeout = 200');
    try {
      const outsider = startOutsider(file, 'hold', 1500);
      await outsider.said('locked');
      const edit = await root.put('/api/channel/', { id: channelId, weight: 9 });
      expect(edit).toMatchObject({ status: 503, success: false, message: '数据库暂时不可用，请稍后再试' });
      expect(edit.headers.get('retry-after')).toBe('5');
      await outsider.said('released');
    } finally {
      sqlite.pragma('busy_timeout = 30000');
    }
    expect(await root.put('/api/channel/', { id: channelId, weight: 9 })).toMatchObject({ status: 200, success: true });
    expect((await server.ctx.repos.channels.findById(channelId))?.weight).toBe(9);
  });

  it('keeps serving writes under load while the other process commits write after write', async () => {
    const outsider = startOutsider(file, 'churn', 3000);
    await outsider.said('started');
    const openai = openaiClient(server, key);
    const { total: logsBefore } = await server.ctx.repos.logs.list({ type: 2 }, 0, 1);
    const failures: string[] = [];
    let rounds = 0;
    const deadline = Date.now() + 2500;
    while (Date.now() < deadline) {
      rounds++;
      const results = await Promise.all([
        root.put('/api/channel/', { id: channelId, weight: rounds % 50 }),
        root.post('/api/token/', { name: `load-${rounds}` }),
        root.put('/api/option/', { key: 'RetryTimes', value: String(rounds % 3) }),
        ...Array.from({ length: 3 }, () => openai.chat.completions.create(ask).then(() => null)),
      ]);
      for (const result of results) {
        if (result && (result.status !== 200 || !result.success)) failures.push(`${result.status} ${result.message}`);
      }
      // Flushes the usage logs and quota now, inside the window, rather than after the other process is gone.
      await flushBilling(server);
    }
    const [commits = 0, outsideFailures] = (await outsider.said('done')).split(' ').map(Number);
    expect(failures).toEqual([]);
    expect(rounds).toBeGreaterThan(3);
    // The other process really wrote in between, and never failed either.
    expect(commits).toBeGreaterThan(10);
    expect(outsideFailures).toBe(0);
    await flushBilling(server);
    const { total } = await server.ctx.repos.logs.list({ type: 2 }, 0, 1);
    expect(total - logsBefore).toBe(rounds * 3);
  });
});
