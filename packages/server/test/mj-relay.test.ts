import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pollTasksOnce } from '../src/jobs/task-poller.js';
import { type ApiClient, ROLE_REFUSED, refusal } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { addChannel, addToken, balances, flushBilling } from './helpers/relay.js';
import type { TestServer } from './helpers/server.js';
import { callJson, startTaskRelayWorld, TASK_POLL } from './helpers/task-relay.js';
import { gradientPng, type MockUpstream } from './mock-upstream/index.js';

const dialects = await availableDialects();

// Default per-call prices × QuotaPerUnit 500000 × group ratio 1.
const IMAGINE = 0.1 * 500_000;
const UPSCALE = 0.05 * 500_000;

type Answer = Record<string, unknown> & { code?: unknown; result?: string; description?: string };

const call = (server: TestServer, method: string, path: string, headers: Record<string, string>, body?: unknown) =>
  callJson<Answer>(server, method, path, headers, body);

describe.each(dialects)('Midjourney proxy relay on %s', (dialect) => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  let alice: ApiClient;
  let bob: ApiClient;
  let aliceKey: string;
  let bobKey: string;
  let mainChannel: number;
  let otherChannel: number;

  const auth = (key: string) => ({ authorization: `Bearer ${key}` });
  const submit = (key: string, path: string, body: unknown) => call(server, 'POST', path, auth(key), body);
  const aliceBalances = () => balances(server, alice.userId!, aliceKey);
  const poll = () => pollTasksOnce(server.ctx, TASK_POLL);

  const imagine = async (prompt: string) => {
    const answer = await submit(aliceKey, '/mj/submit/imagine', { prompt });
    expect(answer.json.code).toBe(1);
    return answer.json.result!;
  };

  beforeAll(async () => {
    ({
      server,
      mock,
      root,
      alice,
      bob,
      aliceKey,
      bobKey,
      channelId: mainChannel,
    } = await startTaskRelayWorld(dialect, {
      type: 2,
      key: 'mj-secret-main',
      models: 'mj_imagine,mj_upscale,mj_variation,mj_describe',
    }));
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  it('submits an imagine with the channel secret, bills the fixed price once, and records the task', async () => {
    const before = await aliceBalances();
    const answer = await submit(aliceKey, '/mj/submit/imagine', {
      prompt: 'a red fox in snow --fast',
      notifyHook: 'https://example.com/hook',
      accountFilter: { instanceId: 'x' },
      state: 'my-state',
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ code: 1, description: '提交成功' });
    expect(answer.headers.get('x-oneapi-request-id')).toBeTruthy();
    const upstream = mock.requests[0]!;
    expect(upstream.path).toBe('/mj/submit/imagine');
    expect(upstream.headers['mj-api-secret']).toBe('mj-secret-main');
    expect(JSON.stringify(upstream.headers)).not.toContain(aliceKey.slice(3));
    // Default switches: notify hook and account filter dropped, speed flag cleared.
    expect(upstream.body).toEqual({ prompt: 'a red fox in snow', state: 'my-state' });

    const after = await aliceBalances();
    expect(before.user.quota - after.user.quota).toBe(IMAGINE);
    expect(after.user.used_quota - before.user.used_quota).toBe(IMAGINE);
    expect(before.token.remain_quota - after.token.remain_quota).toBe(IMAGINE);
    const { items } = await server.ctx.repos.logs.list({ type: 2, userId: alice.userId! }, 0, 1);
    expect(items[0]).toMatchObject({ model_name: 'mj_imagine', quota: IMAGINE, channel_id: mainChannel });
    expect(items[0]!.content).toContain(`操作 IMAGINE，任务 ID ${answer.json.result}`);

    const mine = await alice.get<Array<Record<string, unknown>>>(`/api/mj/self?mj_id=${answer.json.result}`);
    expect(mine.success).toBe(true);
    expect(mine.data).toHaveLength(1);
    expect(mine.data[0]).toMatchObject({
      mj_id: answer.json.result,
      action: 'IMAGINE',
      status: 'SUBMITTED',
      progress: '0%',
      prompt: 'a red fox in snow --fast',
      quota: IMAGINE,
      code: 1,
    });
    // Users never see the channel or who-paid bookkeeping.
    expect(mine.data[0]).not.toHaveProperty('channel_id');
    expect(mine.data[0]).not.toHaveProperty('properties');
    expect(JSON.stringify(mine.data[0])).not.toContain('payer');
  });

  it('keeps the task current by polling, forwards the image through the gateway, and serves fetch from the database', async () => {
    const id = await imagine('a quiet lake [progress]');
    const fetchTask = () => call(server, 'GET', `/mj/task/${id}/fetch`, { 'mj-api-secret': aliceKey });
    expect((await fetchTask()).json).toMatchObject({ id, status: 'SUBMITTED', progress: '0%', imageUrl: '' });
    expect(mock.requests.filter((r) => r.path.includes('/task/'))).toHaveLength(0);

    await poll();
    expect((await fetchTask()).json).toMatchObject({ status: 'IN_PROGRESS', progress: '50%' });
    await poll();
    const done = (await fetchTask()).json;
    expect(done).toMatchObject({ id, action: 'IMAGINE', status: 'SUCCESS', progress: '100%', failReason: '' });
    expect(done.imageUrl).toBe(`${server.baseUrl}/mj/image/${id}`);
    expect(done.buttons).toHaveLength(9);
    expect(done.properties).toMatchObject({ finalPrompt: 'a quiet lake [progress]' });
    const listed = mock.requests.find((r) => r.path === '/mj/task/list-by-condition')!;
    expect(listed.headers['mj-api-secret']).toBe('mj-secret-main');

    const image = await fetch(done.imageUrl as string);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).equals(gradientPng(id))).toBe(true);

    const seed = await call(server, 'GET', `/mj/task/${id}/image-seed`, auth(aliceKey));
    expect(seed.json).toMatchObject({ code: 1, result: id.slice(-6) });
    expect((await call(server, 'GET', `/mj/task/${id}/image-seed`, auth(bobKey))).status).toBe(404);

    const byCondition = await call(server, 'POST', '/mj/task/list-by-condition', auth(aliceKey), { ids: [id, 'nope'] });
    expect(byCondition.json).toEqual([expect.objectContaining({ id, status: 'SUCCESS' })]);

    const admin = await root.get<Array<Record<string, unknown>>>(`/api/mj/?mj_id=${id}`);
    expect(admin.data[0]).toMatchObject({
      channel_id: mainChannel,
      image_url: `/mj/image/${id}`,
      status: 'SUCCESS',
      properties: { discordInstanceId: '1118138338562560102' },
    });
    expect(JSON.stringify(admin.data[0])).not.toContain('payer');
  });

  it('keeps tasks to their owner: fetch, list and follow-ups on someone else’s task find nothing', async () => {
    const id = await imagine('owned by alice');
    const bobBefore = await balances(server, bob.userId!, bobKey);
    const fetched = await call(server, 'GET', `/mj/task/${id}/fetch`, auth(bobKey));
    expect(fetched.status).toBe(404);
    expect(fetched.json).toMatchObject({ code: 4 });
    expect(fetched.json.description).toMatch(/^任务不存在 \(request id: /);
    expect((await call(server, 'POST', '/mj/task/list-by-condition', auth(bobKey), { ids: [id] })).json).toEqual([]);
    const upscale = await submit(bobKey, '/mj/submit/change', { taskId: id, action: 'UPSCALE', index: 1 });
    expect([upscale.status, upscale.json.code]).toEqual([400, 4]);
    expect((await bob.get<unknown[]>('/api/mj/self')).data).toEqual([]);
    const bobAfter = await balances(server, bob.userId!, bobKey);
    expect(bobAfter.user.quota).toBe(bobBefore.user.quota);
    // Users cannot reach the admin list.
    expect(refusal(await alice.get('/api/mj/'))).toEqual(ROLE_REFUSED);
  });

  it('sends a follow-up to the channel that holds the original task, priced as its own action', async () => {
    otherChannel ??= await addChannel(root, {
      type: 5,
      key: 'mj-secret-other',
      base_url: mock.baseUrl,
      models: 'mj_imagine,mj_upscale',
      priority: 10,
    });
    // The new channel has the higher priority: a fresh imagine goes there.
    const id = await imagine('two channels');
    expect(mock.requests.at(-1)!.headers['mj-api-secret']).toBe('mj-secret-other');

    const early = await submit(aliceKey, '/mj/submit/action', { taskId: id, customId: `MJ::JOB::upsample::1::${id}` });
    expect([early.status, early.json.code]).toEqual([400, 4]);
    expect(early.json.description).toMatch(/原任务尚未成功/);

    await poll();
    const before = await aliceBalances();
    mock.reset();
    const up = await submit(aliceKey, '/mj/submit/action', { taskId: id, customId: `MJ::JOB::upsample::1::${id}` });
    expect(up.json.code).toBe(1);
    expect(mock.requests[0]!.path).toBe('/mj/submit/action');
    expect(mock.requests[0]!.headers['mj-api-secret']).toBe('mj-secret-other');
    const after = await aliceBalances();
    expect(before.user.quota - after.user.quota).toBe(UPSCALE);
    const row = (await alice.get<Array<Record<string, unknown>>>(`/api/mj/self?mj_id=${up.json.result}`)).data[0];
    expect(row).toMatchObject({ action: 'UPSCALE', quota: UPSCALE, prompt: 'two channels' });
    await root.put('/api/channel/', { id: otherChannel, status: 2 });
  });

  it('refunds a task that fails upstream exactly once, even when two polls race', async () => {
    const before = await aliceBalances();
    const id = await imagine('a cat [fail]');
    const charged = await aliceBalances();
    expect(before.user.quota - charged.user.quota).toBe(IMAGINE);

    await Promise.all([poll(), poll()]);
    await poll();
    const after = await aliceBalances();
    expect(after.user.quota).toBe(before.user.quota);
    expect(after.token.remain_quota).toBe(before.token.remain_quota);
    expect(after.user.used_quota).toBe(before.user.used_quota);
    const task = (await call(server, 'GET', `/mj/task/${id}/fetch`, auth(aliceKey))).json;
    expect(task).toMatchObject({ status: 'FAILURE', progress: '100%' });
    expect(task.failReason).toMatch(/Invalid parameter/);
    await flushBilling(server);
    const { items } = await server.ctx.repos.logs.list({ type: 4, userId: alice.userId! }, 0, 50);
    expect(items.filter((log) => log.content?.includes(`构图失败 ${id}`))).toHaveLength(1);
  });

  it('fails and refunds a task that outlives the timeout', async () => {
    const before = await aliceBalances();
    const id = await imagine('forever [slow]');
    await poll();
    expect((await call(server, 'GET', `/mj/task/${id}/fetch`, auth(aliceKey))).json).toMatchObject({
      status: 'IN_PROGRESS',
      progress: '10%',
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await pollTasksOnce(server.ctx, { queryLimit: 1000, timeoutMinutes: 0.00001 });
    const task = (await call(server, 'GET', `/mj/task/${id}/fetch`, auth(aliceKey))).json;
    expect(task).toMatchObject({ status: 'FAILURE', failReason: '任务超时' });
    expect((await aliceBalances()).user.quota).toBe(before.user.quota);
  });

  it('charges nothing when the upstream refuses the submit or fails, and records the refusal', async () => {
    const before = await aliceBalances();
    const banned = await submit(aliceKey, '/mj/submit/imagine', { prompt: 'something [banned]' });
    expect(banned.status).toBe(200);
    expect(banned.json).toMatchObject({ code: 24, description: '可能包含敏感词' });
    const refused = (await alice.get<Array<Record<string, unknown>>>('/api/mj/self')).data[0];
    expect(refused).toMatchObject({ code: 24, status: 'FAILURE', fail_reason: '可能包含敏感词', quota: 0 });

    mock.enqueue('mj.submit', { kind: 'status', status: 500, message: 'proxy crashed' });
    const crashed = await submit(aliceKey, '/mj/submit/imagine', { prompt: 'crash please' });
    expect(crashed.status).toBe(500);
    expect(crashed.json).toMatchObject({ code: 5 });
    expect(crashed.json.description).toContain('proxy crashed');
    const after = await aliceBalances();
    expect(after.user.quota).toBe(before.user.quota);
    expect(after.token.remain_quota).toBe(before.token.remain_quota);
  });

  it('refuses bad input and missing quota with the family’s answers, changing nothing', async () => {
    const before = await aliceBalances();
    const missing = await submit(aliceKey, '/mj/submit/imagine', {});
    expect([missing.status, missing.json.code]).toEqual([400, 4]);
    expect(missing.json.description).toMatch(/^prompt 不能为空/);
    const badChange = await submit(aliceKey, '/mj/submit/simple-change', { content: 'only-one-part' });
    expect(badChange.json.description).toMatch(/^content 不能为空/);
    const badAction = await submit(aliceKey, '/mj/submit/change', { taskId: '1', action: 'EXPLODE' });
    expect(badAction.json.description).toMatch(/不支持的操作：EXPLODE/);
    const notJson = await call(server, 'POST', '/mj/submit/imagine', auth(aliceKey), ['a', 'list']);
    expect(notJson.status).toBe(400);
    const noKey = await call(server, 'POST', '/mj/submit/imagine', {}, { prompt: 'x' });
    expect(noKey.status).toBe(401);
    // No channel serves mj_video: that, not its missing price, is what the caller is told (a 404: asking again
    // cannot help).
    const unserved = await submit(aliceKey, '/mj/submit/video', { prompt: 'x' });
    expect(unserved.status).toBe(404);
    expect(unserved.json.description).toMatch(/模型 mj_video 不存在/);

    const poorKey = await addToken(alice, { name: 'poor', remain_quota: 10 });
    const poor = await submit(poorKey, '/mj/submit/imagine', { prompt: 'too expensive' });
    expect([poor.status, poor.json.code]).toEqual([403, 4]);
    expect(poor.json.description).toMatch(/^令牌额度不足/);
    expect(mock.requests.filter((r) => r.path.includes('/submit/'))).toHaveLength(0);
    const after = await aliceBalances();
    expect(after.user.quota).toBe(before.user.quota);
  });

  it('takes a channel whose secret the upstream refuses out of rotation, and charges nothing', async () => {
    await root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' });
    // Without retries (a fresh install retries on the good channel, and the caller would never see the refusal).
    await root.put('/api/option/', { key: 'RetryTimes', value: '0' });
    const broken = await addChannel(root, {
      type: 2,
      key: 'invalid-key',
      base_url: mock.baseUrl,
      models: 'mj_describe',
      priority: 100,
    });
    const before = await aliceBalances();
    const answer = await submit(aliceKey, '/mj/submit/describe', { base64: 'data:image/png;base64,AAAA' });
    // The channel's secret refused is the gateway's problem: a 503 with a generic message, the detail for the admin.
    expect(answer.status).toBe(503);
    expect(answer.json.description).toContain('上游渠道暂时不可用');
    expect(answer.json.description).not.toContain('Unauthorized');
    expect((await aliceBalances()).user.quota).toBe(before.user.quota);
    // The channel is disabled off the request path: wait for it (bounded).
    let status = 0;
    for (let tries = 0; tries < 50 && status !== 3; tries++) {
      status = (await root.get<{ status: number }>(`/api/channel/${broken}`)).data.status;
      if (status !== 3) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toBe(3);
    await root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'false' });
    await root.put('/api/option/', { key: 'RetryTimes', value: '3' });
    await root.delete(`/api/channel/${broken}`);
  });

  it('never lets concurrent submits spend more than a key holds', async () => {
    const budgetKey = await addToken(alice, { name: 'budget', remain_quota: 2.5 * IMAGINE });
    const before = await balances(server, alice.userId!, budgetKey);
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) => submit(budgetKey, '/mj/submit/imagine', { prompt: `race ${i}` })),
    );
    expect(answers.filter((answer) => answer.json.code === 1)).toHaveLength(2);
    expect(answers.filter((answer) => answer.status === 403)).toHaveLength(3);
    const after = await balances(server, alice.userId!, budgetKey);
    expect(after.token.remain_quota).toBe(0.5 * IMAGINE);
    expect(before.user.quota - after.user.quota).toBe(2 * IMAGINE);
    expect(mock.requests.filter((r) => r.path === '/mj/submit/imagine')).toHaveLength(2);
  });

  it('passes the speed lane through, and accepts the key in mj-api-secret', async () => {
    const answer = await call(
      server,
      'POST',
      '/relax/mj/submit/imagine',
      { 'mj-api-secret': aliceKey },
      { prompt: 'slowly' },
    );
    expect(answer.json.code).toBe(1);
    expect(mock.requests[0]!.path).toBe('/relax/mj/submit/imagine');
  });

  it('filters the admin list by channel, id and time (milliseconds), and pages it', async () => {
    const id = await imagine('for the filters');
    const now = Date.now();
    const found = await root.get<Array<{ mj_id: string }>>(
      `/api/mj/?channel_id=${mainChannel}&start_timestamp=${now - 60_000}&end_timestamp=${now + 60_000}`,
    );
    expect(found.data.map((row) => row.mj_id)).toContain(id);
    const future = await root.get<unknown[]>(`/api/mj/?start_timestamp=${now + 3_600_000}`);
    expect(future.data).toEqual([]);
    const otherChannelOnly = await root.get<Array<{ mj_id: string }>>(`/api/mj/?channel_id=${mainChannel + 1000}`);
    expect(otherChannelOnly.data).toEqual([]);
    const firstPage = await alice.get<unknown[]>('/api/mj/self?p=1&page_size=2');
    const secondPage = await alice.get<unknown[]>('/api/mj/self?p=2&page_size=2');
    expect(firstPage.data).toHaveLength(2);
    expect(secondPage.data.length).toBeGreaterThan(0);
    expect(secondPage.data[0]).not.toEqual(firstPage.data[0]);
    // As in the family, a filter number it cannot read filters nothing.
    const unreadable = await root.get<unknown[]>('/api/mj/?channel_id=abc&start_timestamp=&end_timestamp=NaN');
    expect(unreadable.data.length).toBe((await root.get<unknown[]>('/api/mj/')).data.length);
  });
});
