import { LogType, type TaskView } from '@gateway/shared';
import type OpenAI from 'openai';
import { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollTasksOnce } from '../src/jobs/task-poller.js';
import { type ApiClient, setupAndLogin, signedInUser } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { addChannel, addToken, apiError, balances, flushBilling, lastCallLog, openaiClient } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { TASK_POLL } from './helpers/task-relay.js';
import { VIDEO_FILE } from './helpers/video-vendor-kit.js';
import { gradientPng } from './mock-upstream/png.js';
import { SORA_KEY, startSoraVideoMock } from './mock-upstream/providers/sora-video.js';
import type { VendorMock } from './mock-upstream/providers/vendor-server.js';

// ModelPrice is per second of video (the family's seconds ratio): 0.1 × QuotaPerUnit 500000 per second.
const PER_SECOND = 0.1 * 500_000;
const START = 10_000_000;

type Json = Record<string, unknown>;

async function world(dialect: 'sqlite' | 'postgres' | 'mysql' = 'sqlite') {
  const mock = await startSoraVideoMock();
  const server = await startTestServer(dialect);
  const root = await setupAndLogin(server.baseUrl);
  await addChannel(root, { type: 1, key: SORA_KEY, base_url: mock.baseUrl, models: 'sora-2,sora-2-pro' });
  const saved = await root.put('/api/option/', {
    key: 'ModelPrice',
    value: JSON.stringify({ 'sora-2': 0.1, 'sora-2-pro': 0.3 }),
  });
  if (!saved.success) throw new Error(saved.message);
  const alice = await signedInUser(server.baseUrl, server.ctx.repos, 'alice');
  const bob = await signedInUser(server.baseUrl, server.ctx.repos, 'bob');
  for (const user of [alice, bob]) await server.ctx.repos.users.addQuota(user.userId!, START);
  const aliceKey = await addToken(alice, { remain_quota: START });
  const bobKey = await addToken(bob, { remain_quota: START });
  return { mock, server, root, alice, bob, aliceKey, bobKey };
}

describe('OpenAI Videos API (Sora) through the gateway', () => {
  let mock: VendorMock;
  let server: TestServer;
  let alice: ApiClient;
  let bob: ApiClient;
  let root: ApiClient;
  let aliceKey: string;
  let bobKey: string;
  let openai: OpenAI;

  const fetchJson = async (path: string, key: string, init: RequestInit = {}) => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${key}`, ...(init.headers as Record<string, string>) },
    });
    const text = await response.text();
    return { status: response.status, json: (text ? JSON.parse(text) : null) as Json, text };
  };

  beforeAll(async () => {
    ({ mock, server, alice, bob, root, aliceKey, bobKey } = await world());
    openai = openaiClient(server, aliceKey);
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });

  it('creates a video with the SDK, charges seconds × price once, and hides the vendor behind a public id', async () => {
    const before = await balances(server, alice.userId!, aliceKey);
    const created = await openai.videos.create({
      model: 'sora-2',
      prompt: 'a cat on a piano',
      seconds: '8',
      size: '1280x720',
    });
    expect(created).toMatchObject({
      object: 'video',
      model: 'sora-2',
      status: 'queued',
      seconds: '8',
      size: '1280x720',
    });
    expect(created.id).toMatch(/^task_[A-Za-z0-9]{32}$/);

    // The SDK sent multipart; the vendor got the fields it expects, with the key the channel holds.
    const sent = mock.requests.at(-1)!;
    expect(sent).toMatchObject({ method: 'POST', path: '/v1/videos' });
    expect(sent.headers.authorization).toBe(`Bearer ${SORA_KEY}`);
    expect(sent.body).toMatchObject({ model: 'sora-2', prompt: 'a cat on a piano', seconds: '8', size: '1280x720' });

    const log = await lastCallLog(server);
    expect(log.quota).toBe(8 * PER_SECOND);
    expect(JSON.parse(log.other ?? '{}')).toMatchObject({ task_id: created.id, other_ratios: { seconds: 8, size: 1 } });
    const after = await balances(server, alice.userId!, aliceKey);
    expect(before.user.quota - after.user.quota).toBe(8 * PER_SECOND);
    expect(before.token.remain_quota - after.token.remain_quota).toBe(8 * PER_SECOND);

    // A read asks the vendor (the first poll finishes this one) and answers OpenAI's shape.
    const done = await openai.videos.retrieve(created.id);
    expect(done).toMatchObject({ id: created.id, status: 'completed', progress: 100 });
    const bytes = Buffer.from(await (await openai.videos.downloadContent(created.id)).arrayBuffer());
    expect(bytes.equals(VIDEO_FILE)).toBe(true);

    // The family's route reads the same task in its own shape; neither names the vendor's id or address.
    const family = await fetchJson(`/v1/video/generations/${created.id}`, aliceKey);
    expect(family.json).toMatchObject({
      code: 'success',
      data: { task_id: created.id, status: 'SUCCESS', progress: '100%' },
    });
    expect((family.json.data as Json).result_url).toBe(`${server.baseUrl}/v1/videos/${created.id}/content`);
    const upstreamId = (await server.ctx.repos.tasks.list({ taskId: created.id }, 0, 1))[0]!.private_data!;
    const vendorId = JSON.parse(upstreamId).upstream_task_id as string;
    expect(vendorId).toMatch(/^video_/);
    for (const text of [family.text, JSON.stringify(done)]) {
      expect(text).not.toContain(vendorId);
      expect(text).not.toContain(mock.baseUrl);
      expect(text).not.toContain(SORA_KEY);
    }

    // Nothing more is charged when it finishes as asked.
    const settled = await balances(server, alice.userId!, aliceKey);
    expect(settled.user.quota).toBe(after.user.quota);
  });

  it('streams ranges of the file, and only to its owner', async () => {
    const created = await openai.videos.create({ model: 'sora-2', prompt: 'waves at dusk' });
    await openai.videos.retrieve(created.id);
    const part = await fetch(`${server.baseUrl}/v1/videos/${created.id}/content`, {
      headers: { authorization: `Bearer ${aliceKey}`, range: 'bytes=0-99' },
    });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-99/${VIDEO_FILE.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(VIDEO_FILE.subarray(0, 100))).toBe(true);

    const bob = openaiClient(server, bobKey);
    expect((await apiError(bob.videos.retrieve(created.id))).status).toBe(404);
    expect((await apiError(bob.videos.downloadContent(created.id))).status).toBe(404);
    expect((await fetchJson(`/v1/video/generations/${created.id}`, bobKey)).status).toBe(404);
    // No key and no session: refused before anything is looked up.
    expect((await fetch(`${server.baseUrl}/v1/videos/${created.id}/content`)).status).toBe(401);
  });

  it('states progress, then fails and refunds a failed video exactly once', async () => {
    const before = await balances(server, alice.userId!, aliceKey);
    const slow = await openai.videos.create({ model: 'sora-2', prompt: 'a slow sunrise [progress]', seconds: '4' });
    const running = await openai.videos.retrieve(slow.id);
    expect(running).toMatchObject({ status: 'in_progress', progress: 50 });

    const failing = await openai.videos.create({ model: 'sora-2', prompt: 'an impossible scene [fail]', seconds: '4' });
    const charged = await balances(server, alice.userId!, aliceKey);
    expect(before.user.quota - charged.user.quota).toBe(8 * PER_SECOND);
    await pollTasksOnce(server.ctx, TASK_POLL);
    await pollTasksOnce(server.ctx, TASK_POLL);
    const failed = await openai.videos.retrieve(failing.id);
    expect(failed).toMatchObject({ status: 'failed', error: { message: 'The scene could not be rendered' } });
    expect(await openai.videos.retrieve(slow.id)).toMatchObject({ status: 'completed' });
    const after = await balances(server, alice.userId!, aliceKey);
    expect(charged.user.quota + 4 * PER_SECOND).toBe(after.user.quota);
    expect(charged.token.remain_quota + 4 * PER_SECOND).toBe(after.token.remain_quota);
    const refunds = await server.ctx.repos.logs.list({ type: LogType.System, userId: alice.userId! }, 0, 50);
    expect(refunds.items.filter((row) => (row.other ?? '').includes(failing.id))).toHaveLength(1);

    const status = await fetchJson(`/v1/videos/${failing.id}/content`, aliceKey);
    expect(status.status).toBe(409);
  });

  it('charges the difference when the vendor makes another length than was paid for', async () => {
    const created = await openai.videos.create({ model: 'sora-2', prompt: 'a long take [made:12]', seconds: '8' });
    const charged = await balances(server, alice.userId!, aliceKey);
    expect(await openai.videos.retrieve(created.id)).toMatchObject({ status: 'completed', seconds: '8' });
    const after = await balances(server, alice.userId!, aliceKey);
    expect(charged.user.quota - after.user.quota).toBe(4 * PER_SECOND);
    const row = (await server.ctx.repos.tasks.list({ taskId: created.id }, 0, 1))[0]!;
    expect(Number(row.quota)).toBe(12 * PER_SECOND);
    await pollTasksOnce(server.ctx, TASK_POLL);
    expect((await balances(server, alice.userId!, aliceKey)).user.quota).toBe(after.user.quota);
  });

  it('refuses bad input in the route shape and charges nothing', async () => {
    const before = await balances(server, alice.userId!, aliceKey);
    const tasksBefore = (await server.ctx.repos.tasks.list({}, 0, 1000)).length;
    const noPrompt = await apiError(openai.videos.create({ model: 'sora-2', prompt: '' }));
    expect(noPrompt.status).toBe(400);
    expect(noPrompt.message).toContain('prompt is required');
    const fiveSeconds = await apiError(openai.videos.create({ model: 'sora-2', prompt: 'x', seconds: '5' as '4' }));
    expect(fiveSeconds.status).toBe(400);
    expect(fiveSeconds.message).toContain('The model sora-2 cannot honour the parameter seconds');
    const proSize = await apiError(openai.videos.create({ model: 'sora-2', prompt: 'x', size: '1792x1024' }));
    expect(proSize.message).toContain('size');
    const unknown = await apiError(openai.videos.create({ model: 'veo-9', prompt: 'x' }));
    expect(unknown.status).toBe(404);
    const refused = await apiError(openai.videos.create({ model: 'sora-2', prompt: 'forbidden [refuse]' }));
    expect(refused.status).toBe(400);
    expect(refused.message).toContain('moderation');

    // The family's route answers in its `{code, message, data}` shape.
    const absurd = await fetchJson('/v1/video/generations', aliceKey, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sora-2', prompt: 'x', duration: 999 }),
    });
    expect(absurd.status).toBe(400);
    expect(absurd.json).toMatchObject({ code: 'invalid_request', data: null });
    expect(String(absurd.json.message)).toContain('duration');
    const huge = await apiError(
      openai.videos.create({
        model: 'sora-2',
        prompt: 'x',
        input_reference: await toFile(Buffer.alloc(11 * 1024 * 1024), 'big.png', { type: 'image/png' }),
      }),
    );
    expect(huge.status).toBe(400);
    expect(huge.message).toContain('input_reference');

    const after = await balances(server, alice.userId!, aliceKey);
    expect(after.user.quota).toBe(before.user.quota);
    expect(after.token.remain_quota).toBe(before.token.remain_quota);
    expect((await server.ctx.repos.tasks.list({}, 0, 1000)).length).toBe(tasksBefore);
  });

  it('sends an uploaded first frame to the vendor as a file', async () => {
    const png = gradientPng('first-frame');
    const created = await openai.videos.create({
      model: 'sora-2',
      prompt: 'the picture comes alive',
      input_reference: await toFile(png, 'frame.png', { type: 'image/png' }),
    });
    const sent = mock.requests.at(-1)!.body as { fields: Json; files: Array<{ field: string; data: Buffer }> };
    expect(sent.fields).toMatchObject({ model: 'sora-2', prompt: 'the picture comes alive' });
    expect(sent.files[0]!.field).toBe('input_reference');
    expect(sent.files[0]!.data.equals(png)).toBe(true);
    const row = (await server.ctx.repos.tasks.list({ taskId: created.id }, 0, 1))[0]!;
    expect(row.action).toBe('generate');
  });

  it('gives up on a vendor that keeps answering garbage or 500, refunding once', async () => {
    const garbage = await openai.videos.create({ model: 'sora-2', prompt: 'noise [garbage]' });
    const broken = await openai.videos.create({ model: 'sora-2', prompt: 'noise [500]' });
    const charged = await balances(server, alice.userId!, aliceKey);
    for (let pass = 0; pass < 6; pass++) await pollTasksOnce(server.ctx, TASK_POLL);
    for (const id of [garbage.id, broken.id]) {
      const video = await openai.videos.retrieve(id);
      expect(video.status).toBe('failed');
      expect(video.error?.message).toMatch(/could not be read/);
    }
    const after = await balances(server, alice.userId!, aliceKey);
    expect(after.user.quota - charged.user.quota).toBe(8 * PER_SECOND);
  });

  it('lists video tasks in the console with their shape and a same-origin file the session can play', async () => {
    const created = await openai.videos.create({
      model: 'sora-2',
      prompt: 'a console preview',
      seconds: '4',
      size: '1280x720',
    });
    await openai.videos.retrieve(created.id);
    const own = await alice.get<TaskView[]>('/api/task/self');
    const item = own.data.find((task) => task.task_id === created.id)!;
    expect(item).toMatchObject({
      status: 'SUCCESS',
      quota: 4 * PER_SECOND,
      video: { seconds: 4, size: '1280x720', content_url: `/v1/videos/${created.id}/content`, deleted: false },
    });
    expect(item).not.toHaveProperty('private_data');
    expect(item).not.toHaveProperty('channel_id');
    expect(JSON.stringify(own.data)).not.toMatch(/video_[0-9a-f]{24}/);

    const play = (cookie: string) =>
      fetch(`${server.baseUrl}${item.video!.content_url}`, { headers: { cookie } }).then(async (response) => ({
        status: response.status,
        bytes: Buffer.from(await response.arrayBuffer()),
      }));
    const mine = await play(alice.sessionCookie);
    expect(mine.status).toBe(200);
    expect(mine.bytes.equals(VIDEO_FILE)).toBe(true);
    expect((await play(bob.sessionCookie)).status).toBe(404);
    expect((await play(root.sessionCookie)).status).toBe(200);
    const all = await root.get<TaskView[]>('/api/task/');
    expect(all.data.find((task) => task.task_id === created.id)).toMatchObject({ channel_id: expect.any(Number) });
  });

  it('lists and deletes videos', async () => {
    const running = await openai.videos.create({ model: 'sora-2', prompt: 'forever [slow]' });
    const stillRunning = await apiError(openai.videos.delete(running.id));
    expect(stillRunning.status).toBe(400);
    expect(stillRunning.message).toContain('still being generated');
    const created = await openai.videos.create({ model: 'sora-2', prompt: 'to be deleted' });
    await openai.videos.retrieve(created.id);
    const listed = [];
    for await (const video of openai.videos.list({ limit: 2 })) listed.push(video.id);
    expect(listed).toContain(created.id);
    expect(new Set(listed).size).toBe(listed.length);
    expect(await openai.videos.delete(created.id)).toEqual({ id: created.id, object: 'video.deleted', deleted: true });
    expect(mock.requests.at(-1)).toMatchObject({ method: 'DELETE' });
    expect((await apiError(openai.videos.retrieve(created.id))).status).toBe(404);
  });
});

describe.each(await availableDialects())('video refunds under concurrent polls on two nodes (%s)', (dialect) => {
  it('refunds a failed video once when two nodes poll it at the same time', async () => {
    const { mock, server, alice, aliceKey } = await world(dialect);
    const second = await startTestServer(dialect, {}, server.database);
    try {
      const openai = openaiClient(server, aliceKey);
      const videos = await Promise.all(
        [1, 2, 3].map(() => openai.videos.create({ model: 'sora-2', prompt: 'doomed [fail]', seconds: '4' })),
      );
      await flushBilling(server);
      const charged = await balances(server, alice.userId!, aliceKey);
      await Promise.all([
        pollTasksOnce(server.ctx, TASK_POLL),
        pollTasksOnce(second.ctx, TASK_POLL),
        pollTasksOnce(server.ctx, TASK_POLL),
        pollTasksOnce(second.ctx, TASK_POLL),
      ]);
      await flushBilling(second);
      const after = await balances(server, alice.userId!, aliceKey);
      expect(after.user.quota - charged.user.quota).toBe(3 * 4 * PER_SECOND);
      const refunds = await server.ctx.repos.logs.list({ type: LogType.System, userId: alice.userId! }, 0, 50);
      for (const video of videos) {
        expect(refunds.items.filter((row) => (row.other ?? '').includes(video.id))).toHaveLength(1);
      }
    } finally {
      await second.close();
      await server.close();
      await mock.close();
    }
  });
});
