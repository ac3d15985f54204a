import { LogType } from '@gateway/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollTasksOnce } from '../src/jobs/task-poller.js';
import { type ApiClient, setupAndLogin, signedInUser } from './helpers/client.js';
import { addChannel, addToken, balances, lastCallLog, openaiClient } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { TASK_POLL } from './helpers/task-relay.js';
import { VIDEO_FILE } from './helpers/video-vendor-kit.js';
import { ARK_KEY, startDoubaoVideoMock } from './mock-upstream/providers/doubao-video.js';
import { GEMINI_VIDEO_KEY, startGeminiVideoMock } from './mock-upstream/providers/gemini-video.js';
import { JIMENG_KEY, startJimengVideoMock } from './mock-upstream/providers/jimeng-video.js';
import { KLING_KEY, startKlingVideoMock } from './mock-upstream/providers/kling-video.js';
import { MINIMAX_VIDEO_KEY, startMinimaxVideoMock } from './mock-upstream/providers/minimax-video.js';
import { SORA_KEY, startSoraVideoMock } from './mock-upstream/providers/sora-video.js';
import type { VendorMock } from './mock-upstream/providers/vendor-server.js';
import type { VertexMock } from './mock-upstream/providers/vertex.js';
import { startVertexVideoMock } from './mock-upstream/providers/vertex-video.js';
import { startViduVideoMock, VIDU_KEY } from './mock-upstream/providers/vidu-video.js';

/**
 * Every video vendor through the gateway, the same way: the `openai` SDK's videos client and the family's unified
 * route, the stream of states a client sees, the bill to the unit (ModelPrice × the vendor's ratios), the file
 * streamed back, a failure refunded once. Each vendor's wire details are proven in its own video-<vendor>.test.ts.
 */

interface Vendor {
  name: string;
  type: number;
  /** The channel's key (Vertex: a service account its mock trusts). */
  key: string | ((mock: VendorMock) => string);
  /** The channel's `other` (Vertex: its region). */
  other?: string;
  start(): Promise<VendorMock>;
  model: string;
  seconds: number;
  /** The product of the vendor's ratios for `seconds` at its default size: what ModelPrice is multiplied by. */
  units: number;
  /** Whether the vendor reports a percentage while running (the others show 0 until the end). */
  percent: boolean;
}

const VENDORS: Vendor[] = [
  {
    name: 'Sora',
    type: 55,
    key: SORA_KEY,
    start: startSoraVideoMock,
    model: 'sora-2',
    seconds: 8,
    units: 8,
    percent: true,
  },
  {
    name: 'Azure',
    type: 3,
    key: SORA_KEY,
    start: startSoraVideoMock,
    model: 'sora-2',
    seconds: 4,
    units: 4,
    percent: true,
  },
  {
    name: 'Kling',
    type: 50,
    key: KLING_KEY,
    start: startKlingVideoMock,
    model: 'kling-v1',
    seconds: 5,
    units: 1,
    percent: false,
  },
  {
    name: 'Jimeng',
    type: 51,
    key: JIMENG_KEY,
    start: startJimengVideoMock,
    model: 'jimeng_vgfm_t2v_l20',
    seconds: 5,
    units: 1,
    percent: false,
  },
  {
    name: 'Vidu',
    type: 52,
    key: VIDU_KEY,
    start: startViduVideoMock,
    model: 'viduq1',
    seconds: 5,
    units: 1,
    percent: false,
  },
  {
    name: 'DoubaoVideo',
    type: 54,
    key: ARK_KEY,
    start: startDoubaoVideoMock,
    model: 'doubao-seedance-1-0-pro-250528',
    seconds: 5,
    units: 1,
    percent: false,
  },
  {
    name: 'VolcEngine',
    type: 45,
    key: ARK_KEY,
    start: startDoubaoVideoMock,
    model: 'doubao-seedance-1-0-pro-250528',
    seconds: 5,
    units: 1,
    percent: false,
  },
  {
    name: 'Gemini',
    type: 24,
    key: GEMINI_VIDEO_KEY,
    start: startGeminiVideoMock,
    model: 'veo-3.0-generate-001',
    seconds: 8,
    units: 8,
    percent: false,
  },
  {
    name: 'VertexAi',
    type: 41,
    key: (mock) => JSON.stringify((mock as VertexMock).serviceAccount({ projectId: 'veo-project' })),
    other: 'us-central1',
    start: startVertexVideoMock,
    model: 'veo-3.0-generate-001',
    seconds: 8,
    units: 8,
    percent: false,
  },
  {
    name: 'MiniMax',
    type: 35,
    key: MINIMAX_VIDEO_KEY,
    start: startMinimaxVideoMock,
    model: 'MiniMax-Hailuo-02',
    seconds: 6,
    units: 1,
    percent: false,
  },
];

const PRICE = 0.2;
const QUOTA_PER_UNIT = 500_000;
const START = 50_000_000;

type Json = Record<string, unknown>;

/** A call to the gateway with a user's API key, as a client makes it: JSON in, status and JSON back. */
async function callGateway(baseUrl: string, key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, json: (await response.json()) as Json };
}

const SERVED_BY_VENDOR = new Set(['Sora', 'Azure', 'Gemini', 'VertexAi', 'MiniMax']);

describe.each(VENDORS)('video through the gateway on a $name channel (type $type)', (vendor) => {
  let mock: VendorMock;
  let server: TestServer;
  let alice: ApiClient;
  let key: string;
  const cost = Math.round(PRICE * QUOTA_PER_UNIT * vendor.units);

  const call = (method: string, path: string, body?: unknown) => callGateway(server.baseUrl, key, method, path, body);

  beforeAll(async () => {
    mock = await vendor.start();
    server = await startTestServer('sqlite');
    const root = await setupAndLogin(server.baseUrl);
    await addChannel(root, {
      type: vendor.type,
      key: typeof vendor.key === 'function' ? vendor.key(mock) : vendor.key,
      base_url: mock.baseUrl,
      models: vendor.model,
      ...(vendor.other ? { other: vendor.other } : {}),
    });
    const saved = await root.put('/api/option/', {
      key: 'ModelPrice',
      value: JSON.stringify({ [vendor.model]: PRICE }),
    });
    if (!saved.success) throw new Error(saved.message);
    alice = await signedInUser(server.baseUrl, server.ctx.repos, 'alice');
    await server.ctx.repos.users.addQuota(alice.userId!, START);
    key = await addToken(alice, { remain_quota: START });
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });

  it('makes a video through the openai SDK: states in order, the bill to the unit, the file streamed back', async () => {
    const openai = openaiClient(server, key);
    const before = await balances(server, alice.userId!, key);
    const created = await openai.videos.create({
      model: vendor.model,
      prompt: 'a lighthouse in a storm [progress]',
      seconds: String(vendor.seconds) as '4',
    });
    expect(created).toMatchObject({ object: 'video', status: 'queued', model: vendor.model });
    const log = await lastCallLog(server);
    expect(log.quota).toBe(cost);
    expect(JSON.parse(log.other ?? '{}').task_id).toBe(created.id);

    const states: string[] = [];
    let video = created;
    // The first read asks the vendor itself; later reads within two seconds show what the poller stored.
    for (let read = 0; read < 5 && video.status !== 'completed'; read++) {
      video = await openai.videos.retrieve(created.id);
      states.push(`${video.status}:${video.progress}`);
      if (video.status !== 'completed') await pollTasksOnce(server.ctx, TASK_POLL);
    }
    expect(states).toEqual([vendor.percent ? 'in_progress:50' : 'in_progress:0', 'completed:100']);
    const bytes = Buffer.from(await (await openai.videos.downloadContent(created.id)).arrayBuffer());
    expect(bytes.equals(VIDEO_FILE)).toBe(true);

    const after = await balances(server, alice.userId!, key);
    expect(before.user.quota - after.user.quota).toBe(cost);
    expect(before.token.remain_quota - after.token.remain_quota).toBe(cost);
  });

  it("makes a video through the family's unified route and reads it in the family's shape", async () => {
    const submitted = await call('POST', '/v1/video/generations', {
      model: vendor.model,
      prompt: 'a paper boat on a river',
      duration: vendor.seconds,
    });
    expect(submitted.status).toBe(200);
    const taskId = submitted.json.task_id as string;
    expect(taskId).toMatch(/^task_/);
    await pollTasksOnce(server.ctx, TASK_POLL);
    const read = await call('GET', `/v1/video/generations/${taskId}`);
    expect(read.json).toMatchObject({
      code: 'success',
      data: { task_id: taskId, status: 'SUCCESS', progress: '100%', platform: String(vendor.type) },
    });
    expect((read.json.data as Json).result_url).toBe(`${server.baseUrl}/v1/videos/${taskId}/content`);
    expect(JSON.stringify(read.json)).not.toContain(mock.baseUrl);
  });

  it('refunds a failed video exactly once', async () => {
    const openai = openaiClient(server, key);
    const before = await balances(server, alice.userId!, key);
    const created = await openai.videos.create({
      model: vendor.model,
      prompt: 'an impossible staircase [fail]',
      seconds: String(vendor.seconds) as '4',
    });
    for (let pass = 0; pass < 3; pass++) await pollTasksOnce(server.ctx, TASK_POLL);
    const failed = await openai.videos.retrieve(created.id);
    expect(failed.status).toBe('failed');
    expect(failed.error?.message).toBeTruthy();
    const after = await balances(server, alice.userId!, key);
    expect(after.user.quota).toBe(before.user.quota);
    const refunds = await server.ctx.repos.logs.list({ type: LogType.System, userId: alice.userId! }, 0, 20);
    expect(refunds.items.filter((row) => (row.other ?? '').includes(created.id))).toHaveLength(1);
  });

  const submit = (prompt: string) =>
    openaiClient(server, key).videos.create({ model: vendor.model, prompt, seconds: String(vendor.seconds) as '4' });

  it('fails and refunds, once, a task that never finishes', async () => {
    const before = await balances(server, alice.userId!, key);
    const created = await submit('a clock that never stops [slow]');
    await pollTasksOnce(server.ctx, TASK_POLL);
    // Past TASK_TIMEOUT_MINUTES (here: any task submitted before now), the next pass gives it up.
    await server.ctx.repos.tasks.update((await server.ctx.repos.tasks.list({ taskId: created.id }, 0, 1))[0]!.id, {
      submit_time: Math.floor(Date.now() / 1000) - 120,
    });
    await pollTasksOnce(server.ctx, { ...TASK_POLL, timeoutMinutes: 1 });
    await pollTasksOnce(server.ctx, { ...TASK_POLL, timeoutMinutes: 1 });
    const video = await openaiClient(server, key).videos.retrieve(created.id);
    expect(video).toMatchObject({ status: 'failed', error: { message: '任务超时' } });
    expect((await balances(server, alice.userId!, key)).user.quota).toBe(before.user.quota);
  });

  it('a task finished without a file is failed and refunded, unless the vendor serves the file itself', async () => {
    const before = await balances(server, alice.userId!, key);
    const created = await submit('an empty reel [no-url]');
    await pollTasksOnce(server.ctx, TASK_POLL);
    const video = await openaiClient(server, key).videos.retrieve(created.id);
    const after = await balances(server, alice.userId!, key);
    if (SERVED_BY_VENDOR.has(vendor.name)) {
      // The vendor's own file route is asked at download time; with nothing there the client reads a 502.
      expect(video.status).toBe('completed');
      const download = await fetch(`${server.baseUrl}/v1/videos/${created.id}/content`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(download.status).toBe(vendor.name === 'Sora' || vendor.name === 'Azure' ? 200 : 502);
    } else {
      expect(video).toMatchObject({
        status: 'failed',
        error: { message: 'the vendor reported success without a video' },
      });
      expect(after.user.quota).toBe(before.user.quota);
    }
  });
});

describe('Seedance priced per token (a ModelRatio, no ModelPrice)', () => {
  it("charges Ark's token formula at submit and settles by the tokens Ark counted, once", async () => {
    const mock = await startDoubaoVideoMock();
    const server = await startTestServer('sqlite');
    try {
      const root = await setupAndLogin(server.baseUrl);
      const model = 'doubao-seedance-1-0-pro-250528';
      await addChannel(root, { type: 54, key: ARK_KEY, base_url: mock.baseUrl, models: model });
      await root.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify({ [model]: 0.5 }) });
      await server.ctx.repos.users.addQuota(root.userId!, START);
      const key = await addToken(root, { remain_quota: START });
      const openai = openaiClient(server, key);
      const before = await balances(server, root.userId!, key);
      // Seedance 1.0 pro makes 1080p unless asked otherwise: 1920 × 1080 × 24 fps / 1024 tokens a second; 5 asked,
      // 10 made.
      const perSecond = (1920 * 1080 * 24) / 1024;
      const created = await openai.videos.create({ model, prompt: 'a long pan [made:10]', seconds: '5' as '4' });
      const charged = await balances(server, root.userId!, key);
      expect(before.user.quota - charged.user.quota).toBe(Math.round(5 * perSecond * 0.5));
      expect(await openai.videos.retrieve(created.id)).toMatchObject({ status: 'completed' });
      await pollTasksOnce(server.ctx, TASK_POLL);
      const settled = await balances(server, root.userId!, key);
      expect(before.user.quota - settled.user.quota).toBe(Math.round(10 * perSecond * 0.5));
      expect(before.token.remain_quota - settled.token.remain_quota).toBe(Math.round(10 * perSecond * 0.5));
      const notes = await server.ctx.repos.logs.list({ type: LogType.System }, 0, 10);
      const note = notes.items.find((row) => (row.other ?? '').includes(created.id))!;
      expect(JSON.parse(note.other ?? '{}')).toMatchObject({
        content_key: 'task_video_tokens_extra',
        content_params: {
          tokens: Math.floor(10 * perSecond),
          quota: Math.round(10 * perSecond * 0.5) - Math.round(5 * perSecond * 0.5),
        },
      });
    } finally {
      await server.close();
      await mock.close();
    }
  });
});

describe("the vendors' native routes", () => {
  let kling: VendorMock;
  let jimeng: VendorMock;
  let server: TestServer;
  let key: string;

  const call = (method: string, path: string, body?: unknown) => callGateway(server.baseUrl, key, method, path, body);

  beforeAll(async () => {
    kling = await startKlingVideoMock();
    jimeng = await startJimengVideoMock();
    server = await startTestServer('sqlite');
    const root = await setupAndLogin(server.baseUrl);
    await addChannel(root, { type: 50, key: KLING_KEY, base_url: kling.baseUrl, models: 'kling-v1' });
    await addChannel(root, { type: 51, key: JIMENG_KEY, base_url: jimeng.baseUrl, models: 'jimeng_vgfm_t2v_l20' });
    await root.put('/api/option/', {
      key: 'ModelPrice',
      value: JSON.stringify({ 'kling-v1': PRICE, jimeng_vgfm_t2v_l20: PRICE }),
    });
    await server.ctx.repos.users.addQuota(root.userId!, START);
    key = await addToken(root, { remain_quota: START });
  });
  afterAll(async () => {
    await server?.close();
    await kling?.close();
    await jimeng?.close();
  });

  it("takes Kling's own body on /kling/v1/videos and keeps its extra fields for the vendor", async () => {
    const submitted = await call('POST', '/kling/v1/videos/text2video', {
      model_name: 'kling-v1',
      prompt: 'a fox in the snow',
      duration: '10',
      mode: 'pro',
      cfg_scale: 0.7,
    });
    expect(submitted.status).toBe(200);
    const sent = kling.requests.find((request) => request.method === 'POST')!;
    expect(sent.path).toBe('/v1/videos/text2video');
    expect(sent.body).toMatchObject({
      model_name: 'kling-v1',
      prompt: 'a fox in the snow',
      duration: '10',
      mode: 'pro',
      cfg_scale: 0.7,
    });
    const taskId = submitted.json.task_id as string;
    const read = await call('GET', `/kling/v1/videos/text2video/${taskId}`);
    expect(read.json).toMatchObject({ code: 'success', data: { task_id: taskId, status: 'SUCCESS' } });
  });

  it("takes Jimeng's own Action API on /jimeng/", async () => {
    const submitted = await call('POST', '/jimeng/?Action=CVSync2AsyncSubmitTask', {
      req_key: 'jimeng_vgfm_t2v_l20',
      prompt: 'lanterns over a lake',
      frames: 121,
      aspect_ratio: '16:9',
    });
    expect(submitted.status).toBe(200);
    const sent = jimeng.requests.find(
      (request) => request.method === 'POST' && request.query.Action === 'CVSync2AsyncSubmitTask',
    )!;
    expect(sent.body).toMatchObject({
      req_key: 'jimeng_vgfm_t2v_l20',
      prompt: 'lanterns over a lake',
      frames: 121,
      aspect_ratio: '16:9',
    });
    const taskId = submitted.json.task_id as string;
    const read = await call('POST', '/jimeng/?Action=CVSync2AsyncGetResult', { task_id: taskId });
    expect(read.json).toMatchObject({ code: 'success', data: { task_id: taskId, status: 'SUCCESS' } });
    const unknown = await call('POST', '/jimeng/?Action=Nonsense', { task_id: taskId });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.json)).toContain('Action');
  });
});
