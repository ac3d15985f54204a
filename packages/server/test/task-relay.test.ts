import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { pollTasksOnce } from '../src/jobs/task-poller.js';
import { type ApiClient, ROLE_REFUSED, refusal } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { addChannel, addToken, balances, flushBilling } from './helpers/relay.js';
import type { TestServer } from './helpers/server.js';
import { callJson, startTaskRelayWorld, TASK_POLL } from './helpers/task-relay.js';
import type { MockUpstream } from './mock-upstream/index.js';

const dialects = await availableDialects();

// Default per-call prices × QuotaPerUnit 500000 × group ratio.
const MUSIC = 0.1 * 500_000;
const LYRICS = 0.01 * 500_000;

type Json = Record<string, unknown> & { code?: unknown; message?: string; data?: unknown };

const call = (server: TestServer, method: string, path: string, key: string, body?: unknown) =>
  callJson<Json>(server, method, path, { authorization: `Bearer ${key}` }, body);

describe('task poller settings', () => {
  it('reads the family variables and refuses nonsense', () => {
    const settings = (env: Record<string, string>) => loadConfig({ SESSION_SECRET: 'x'.repeat(32), ...env }).taskPoller;
    expect(settings({})).toEqual({ enabled: true, queryLimit: 1000, timeoutMinutes: 1440 });
    expect(settings({ UPDATE_TASK: 'false', TASK_QUERY_LIMIT: '50', TASK_TIMEOUT_MINUTES: '30' })).toEqual({
      enabled: false,
      queryLimit: 50,
      timeoutMinutes: 30,
    });
    expect(() => settings({ UPDATE_TASK: 'maybe' })).toThrow(/UPDATE_TASK/);
    expect(() => settings({ TASK_QUERY_LIMIT: '-1' })).toThrow(/TASK_QUERY_LIMIT/);
  });
});

describe.each(dialects)('Suno task relay on %s', (dialect) => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  let alice: ApiClient;
  let bob: ApiClient;
  let aliceKey: string;
  let bobKey: string;
  let channelId: number;

  const aliceBalances = () => balances(server, alice.userId!, aliceKey);
  const poll = () => pollTasksOnce(server.ctx, TASK_POLL);
  const music = async (prompt: string, extra: Record<string, unknown> = {}) => {
    const answer = await call(server, 'POST', '/suno/submit/music', aliceKey, { prompt, tags: 'pop', ...extra });
    expect(answer.json.code).toBe('success');
    return answer.json.data as string;
  };

  beforeAll(async () => {
    ({ server, mock, root, alice, bob, aliceKey, bobKey, channelId } = await startTaskRelayWorld(dialect, {
      type: 36,
      key: 'suno-upstream-key',
      models: 'suno_music,suno_lyrics',
    }));
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  it('submits music with the channel key, answers the upstream envelope, and bills the fixed price once', async () => {
    const before = await aliceBalances();
    const answer = await call(server, 'POST', '/suno/submit/music', aliceKey, {
      prompt: 'a song about rain',
      mv: 'chirp-v3-5',
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ code: 'success', message: '' });
    const taskId = answer.json.data as string;
    expect(taskId).toMatch(/^[0-9a-f-]{36}$/);
    const upstream = mock.requests[0]!;
    expect(upstream.path).toBe('/suno/submit/music');
    expect(upstream.headers.authorization).toBe('Bearer suno-upstream-key');
    expect(upstream.body).toEqual({ prompt: 'a song about rain', mv: 'chirp-v3-5' });

    const after = await aliceBalances();
    expect(before.user.quota - after.user.quota).toBe(MUSIC);
    expect(before.token.remain_quota - after.token.remain_quota).toBe(MUSIC);
    await flushBilling(server);
    const { items } = await server.ctx.repos.logs.list({ type: 2, userId: alice.userId! }, 0, 1);
    expect(items[0]).toMatchObject({ model_name: 'suno_music', quota: MUSIC, channel_id: channelId });

    const mine = await alice.get<Array<Record<string, unknown>>>(`/api/task/self?task_id=${taskId}`);
    expect(mine.data).toHaveLength(1);
    expect(mine.data[0]).toMatchObject({
      task_id: taskId,
      platform: 'suno',
      action: 'MUSIC',
      status: 'SUBMITTED',
      quota: MUSIC,
    });
    expect(mine.data[0]).not.toHaveProperty('channel_id');
    expect(mine.data[0]).not.toHaveProperty('private_data');
    const admin = await root.get<Array<Record<string, unknown>>>(
      `/api/task/?task_id=${taskId}&channel_id=${channelId}`,
    );
    expect(admin.data[0]).toMatchObject({ task_id: taskId, channel_id: channelId });
  });

  it('polls tasks to completion and serves both fetch routes from the database, to the owner only', async () => {
    const taskId = await music('slow build [progress]');
    const lyricsAnswer = await call(server, 'POST', '/suno/submit/lyrics', aliceKey, { prompt: 'summer nights' });
    const lyricsId = lyricsAnswer.json.data as string;

    await poll();
    const running = await call(server, 'GET', `/suno/fetch/${taskId}`, aliceKey);
    expect(running.json).toMatchObject({
      code: 'success',
      data: { task_id: taskId, status: 'IN_PROGRESS', progress: '50%' },
    });
    const fetchCall = mock.requests.find((r) => r.path === '/suno/fetch')!;
    expect(fetchCall.headers.authorization).toBe('Bearer suno-upstream-key');

    await poll();
    const both = await call(server, 'POST', '/suno/fetch', aliceKey, { ids: [taskId, lyricsId, 'unknown'] });
    const byId = Object.fromEntries((both.json.data as Array<{ task_id: string }>).map((task) => [task.task_id, task]));
    expect(Object.keys(byId).sort()).toEqual([taskId, lyricsId].sort());
    expect(byId[taskId]).toMatchObject({ action: 'MUSIC', status: 'SUCCESS', progress: '100%' });
    expect((byId[taskId] as unknown as { data: Array<{ audio_url: string }> }).data[0]!.audio_url).toMatch(/\.mp3$/);
    expect(byId[lyricsId]).toMatchObject({ action: 'LYRICS', status: 'SUCCESS', data: { title: 'Untitled' } });

    const stranger = await call(server, 'GET', `/suno/fetch/${taskId}`, bobKey);
    expect(stranger.status).toBe(404);
    expect(stranger.json.message).toMatch(/^任务不存在/);
    expect((await call(server, 'POST', '/suno/fetch', bobKey, { ids: [taskId] })).json.data).toEqual([]);
    expect((await bob.get<unknown[]>('/api/task/self')).data).toEqual([]);
    expect(refusal(await bob.get('/api/task/'))).toEqual(ROLE_REFUSED);
    const cont = await call(server, 'POST', '/suno/submit/music', bobKey, { prompt: 'more', task_id: taskId });
    expect(cont.status).toBe(400);
  });

  it("sends the channel's header override, {api_key} filled in, on submits and on polls", async () => {
    const channel = (await root.get<Record<string, unknown>>(`/api/channel/${channelId}`)).data;
    await root.put('/api/channel/', { ...channel, key: '', header_override: '{"X-Proxy-Auth": "k={api_key}"}' });
    try {
      await music('with a proxy header');
      await poll();
      const submit = mock.requests.find((r) => r.path === '/suno/submit/music')!;
      const fetched = mock.requests.find((r) => r.path === '/suno/fetch')!;
      for (const seen of [submit, fetched]) {
        expect(seen.headers['x-proxy-auth']).toBe('k=suno-upstream-key');
        expect(seen.headers.authorization).toBe('Bearer suno-upstream-key');
      }
    } finally {
      await root.put('/api/channel/', { ...channel, key: '', header_override: '' });
    }
  });

  it('refunds a failed task exactly once, even when polls race', async () => {
    const before = await aliceBalances();
    const taskId = await music('policy breaker [fail]');
    expect(before.user.quota - (await aliceBalances()).user.quota).toBe(MUSIC);
    await Promise.all([poll(), poll(), poll()]);
    await poll();
    const after = await aliceBalances();
    expect(after.user.quota).toBe(before.user.quota);
    expect(after.token.remain_quota).toBe(before.token.remain_quota);
    const task = await call(server, 'GET', `/suno/fetch/${taskId}`, aliceKey);
    expect(task.json.data).toMatchObject({ status: 'FAILURE', fail_reason: 'Unable to generate: content policy' });
    await flushBilling(server);
    const { items } = await server.ctx.repos.logs.list({ type: 4, userId: alice.userId! }, 0, 50);
    expect(items.filter((log) => log.content?.includes(taskId))).toHaveLength(1);
  });

  it('gives an unlimited key its count back too when a task fails', async () => {
    const unlimited = await addToken(alice, { name: 'unlimited', unlimited_quota: true });
    const before = await balances(server, alice.userId!, unlimited);
    const answer = await call(server, 'POST', '/suno/submit/lyrics', unlimited, { prompt: 'doomed [fail]' });
    expect(answer.json.code).toBe('success');
    const charged = await balances(server, alice.userId!, unlimited);
    expect(charged.token.used_quota - before.token.used_quota).toBe(LYRICS);
    await poll();
    const after = await balances(server, alice.userId!, unlimited);
    expect(after.user.quota).toBe(before.user.quota);
    expect(after.token.used_quota).toBe(before.token.used_quota);
    expect(after.token.remain_quota).toBe(before.token.remain_quota);
  });

  it('fails the tasks of a deleted channel and refunds them', async () => {
    const spare = await addChannel(root, {
      type: 36,
      key: 'spare',
      base_url: mock.baseUrl,
      models: 'suno_lyrics',
      priority: 5,
    });
    const before = await aliceBalances();
    const answer = await call(server, 'POST', '/suno/submit/lyrics', aliceKey, { prompt: 'orphan [slow]' });
    expect(answer.json.code).toBe('success');
    expect(mock.requests[0]!.headers.authorization).toBe('Bearer spare');
    expect(before.user.quota - (await aliceBalances()).user.quota).toBe(LYRICS);
    expect((await root.delete(`/api/channel/${spare}`)).success).toBe(true);
    await poll();
    const task = await call(server, 'GET', `/suno/fetch/${answer.json.data}`, aliceKey);
    expect(task.json.data).toMatchObject({ status: 'FAILURE' });
    expect((await aliceBalances()).user.quota).toBe(before.user.quota);
  });

  it('charges nothing for refusals and bad input', async () => {
    const before = await aliceBalances();
    const refused = await call(server, 'POST', '/suno/submit/music', aliceKey, { prompt: 'no way [refuse]' });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ code: 'fail', data: null });
    expect(refused.json.message).toContain('prompt contains banned words');
    const unknown = await call(server, 'POST', '/suno/submit/video', aliceKey, { prompt: 'x' });
    expect([unknown.status, unknown.json.code]).toEqual([400, 'invalid_action']);
    const empty = await call(server, 'POST', '/suno/submit/lyrics', aliceKey, {});
    expect(empty.json.message).toMatch(/^prompt 不能为空/);
    const badIds = await call(server, 'POST', '/suno/fetch', aliceKey, { ids: 'abc' });
    expect(badIds.status).toBe(400);
    const stranger = await call(server, 'POST', '/suno/submit/music', aliceKey, { prompt: 'x', task_id: 'not-mine' });
    expect(stranger.status).toBe(400);
    // As in the family, a filter number it cannot read filters nothing.
    const unreadable = await root.get<unknown[]>('/api/task/?start_timestamp=-5&channel_id=x');
    expect(unreadable.data).toEqual((await root.get<unknown[]>('/api/task/')).data);
    const after = await aliceBalances();
    expect(after.user.quota).toBe(before.user.quota);
    expect(mock.requests.filter((r) => r.path.startsWith('/suno/submit'))).toHaveLength(1);
  });
});
