import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VideoFunction } from '../src/relay/provider.js';
import { providerFor } from '../src/relay/providers/registry.js';
import { openVendorCall } from '../src/relay/tasks/vendor-call.js';
import type { RuntimeChannel } from '../src/relay/types.js';
import {
  bytesOf,
  PIXEL_PNG,
  VIDEO_FILE,
  vendorChannel,
  vendorSteps,
  videoRequest,
} from './helpers/video-vendor-kit.js';
import { MINIMAX_VIDEO_KEY, startMinimaxVideoMock } from './mock-upstream/providers/minimax-video.js';
import type { VendorMock } from './mock-upstream/providers/vendor-server.js';

// biome-ignore lint/suspicious/noExplicitAny: raw wire bodies; the assertions on them are the type check.
type WireJson = any;

const MODEL = 'MiniMax-Hailuo-02';

describe('MiniMax Hailuo video (type 35)', () => {
  let mock: VendorMock;
  let channel: RuntimeChannel;
  const provider = providerFor(35)!;
  const video = () => provider.functions.video as VideoFunction;
  const steps = (on = () => channel, model = MODEL) => vendorSteps(provider, on(), model);
  const open = (call: Parameters<typeof openVendorCall>[2]) => openVendorCall(provider, channel, call);

  beforeAll(async () => {
    mock = await startMinimaxVideoMock();
    channel = vendorChannel(35, mock, MINIMAX_VIDEO_KEY);
  });
  afterAll(() => mock.close());

  it('keeps its OpenAI-compatible chat and gains video', () => {
    expect(provider.functions.chat).toBeDefined();
    expect(provider.functions.video).toBeDefined();
  });

  it('submits with the Bearer key, polls the task, then retrieves the file and downloads it without the key', async () => {
    const vendor = steps();
    const from = mock.requests.length;
    const upstreamId = await vendor.submitted(
      videoRequest({
        seconds: 10,
        size: '1366x768',
        images: [
          { role: 'first_frame', url: 'https://example.com/start.png' },
          { role: 'last_frame', bytes: PIXEL_PNG, mimeType: 'image/png' },
        ],
        metadata: { prompt_optimizer: false },
      }),
    );
    expect(upstreamId).toMatch(/^\d{12}$/);
    const submit = mock.requests[from]!;
    expect(submit.path).toBe('/v1/video_generation');
    expect(submit.headers.authorization).toBe(`Bearer ${MINIMAX_VIDEO_KEY}`);
    expect(submit.body as WireJson).toEqual({
      model: MODEL,
      prompt: 'a cat riding a skateboard',
      duration: 10,
      resolution: '768P',
      first_frame_image: 'https://example.com/start.png',
      last_frame_image: `data:image/png;base64,${PIXEL_PNG.toString('base64')}`,
      prompt_optimizer: false,
    });

    const progress = await vendor.progress(upstreamId);
    expect(mock.requests.at(-1)!.path).toBe('/v1/query/video_generation');
    expect(mock.requests.at(-1)!.query).toEqual({ task_id: upstreamId });
    expect(progress).toMatchObject({ upstreamId, status: 'completed', progress: 100 });
    expect(progress.url).toMatch(/^\/v1\/files\/retrieve\?file_id=\d+$/);

    const before = mock.requests.length;
    const file = await video().content!(channel, upstreamId, progress.url, open);
    expect(file.statusCode).toBe(200);
    expect((await bytesOf(file)).equals(VIDEO_FILE)).toBe(true);
    const [retrieve, download] = mock.requests.slice(before);
    expect(retrieve!.path).toBe('/v1/files/retrieve');
    expect(retrieve!.headers.authorization).toBe(`Bearer ${MINIMAX_VIDEO_KEY}`);
    expect(download!.path).toMatch(/^\/download\/\d+\.mp4$/);
    expect(download!.query.Signature).toMatch(/^[0-9a-f]{64}$/);
    // The signed storage URL gets no key.
    expect(download!.headers.authorization).toBeUndefined();
  });

  it('a retrieve MiniMax refuses comes back as an error answer, not as a file', async () => {
    const missing = await video().content!(channel, 'x', '/v1/files/retrieve?file_id=999', open);
    expect(missing.statusCode).toBe(502);
    expect(await missing.body.text()).toContain('file not found');
    const wrongKey = { ...channel, key: 'wrong' };
    const refused = await video().content!(wrongKey, 'x', '/v1/files/retrieve?file_id=1', (call) =>
      openVendorCall(provider, wrongKey, call),
    );
    expect(refused.statusCode).toBe(401);
    await expect(video().content!(channel, 'x', undefined, open)).rejects.toThrow();
  });

  it('Queueing → queued, Processing → in progress, then Success; Fail carries base_resp’s reason', async () => {
    const vendor = steps();
    const running = await vendor.submitted(videoRequest({ prompt: 'waves [progress]' }));
    expect(await vendor.progress(running)).toMatchObject({ status: 'in_progress', progress: 0 });
    expect(await vendor.progress(running)).toMatchObject({ status: 'completed', progress: 100 });
    expect(video().readPoll({ task_id: 't', status: 'Queueing', base_resp: { status_code: 0 } }, 't')).toMatchObject({
      status: 'queued',
    });
    expect(video().readPoll({ task_id: 't', status: 'Preparing' }, 't')).toMatchObject({ status: 'queued' });
    const failed = await vendor.progress(await vendor.submitted(videoRequest({ prompt: 'x [fail]' })));
    expect(failed).toMatchObject({
      status: 'failed',
      progress: 100,
      reason: 'video generation failed: output sensitive (1026)',
    });
    const bare = await vendor.progress(await vendor.submitted(videoRequest({ prompt: 'x [no-url]' })));
    expect(bare).toMatchObject({ status: 'completed' });
    expect(bare.url).toBeUndefined();
  });

  it('[garbage] and a status-less refusal throw in readPoll; [500] is an HTTP 500 error() reads', async () => {
    const vendor = steps();
    const garbage = await vendor.poll(await vendor.submitted(videoRequest({ prompt: 'x [garbage]' })));
    expect(garbage.status).toBe(200);
    expect(() => video().readPoll(garbage.json, 'id')).toThrow();
    expect(() => video().readPoll({ base_resp: { status_code: 1002, status_msg: 'rate limit' } }, 'id')).toThrow(
      /rate limit \(1002\)/,
    );
    const failing = await vendor.poll(await vendor.submitted(videoRequest({ prompt: 'x [500]' })));
    expect(failing.status).toBe(500);
    const error = provider.error(500, failing.text);
    expect(error.status).toBe(500);
    expect(error.message).toContain('unknown error');
  });

  it('[refuse] and a wrong key are refusals in the 2xx base_resp envelope', async () => {
    const refused = await steps().submit(videoRequest({ prompt: 'x [refuse]' }));
    expect(refused.answer.status).toBe(200);
    expect(refused.submitted).toEqual({ refused: 'input new_sensitive (1026)' });
    const wrong = await steps(() => ({ ...channel, key: 'wrong-key' })).submit(videoRequest());
    expect(wrong.answer.status).toBe(200);
    expect(wrong.submitted).toEqual({
      refused: 'login fail: Please carefully check the authorization header (1004)',
    });
  });

  it('names what a Hailuo model cannot honour', () => {
    const check = (overrides: Parameters<typeof videoRequest>[0], model = MODEL) =>
      video().unsupported(videoRequest(overrides), model);
    const first = { role: 'first_frame' as const, url: 'https://example.com/a.png' };
    const last = { role: 'last_frame' as const, url: 'https://example.com/b.png' };
    expect(check({})).toBeNull();
    expect(check({ seconds: 5 })).toBe('seconds');
    expect(check({ seconds: 10, resolution: '1080p' })).toBe('seconds');
    expect(check({ seconds: 6, size: '1920x1080' })).toBeNull();
    expect(check({ size: '1280x720' })).toBe('size');
    expect(check({ size: '640x480' })).toBe('size');
    expect(check({ resolution: '720p' })).toBe('resolution');
    expect(check({ resolution: '512p', seconds: 10 })).toBeNull();
    expect(check({ aspectRatio: '16:9' })).toBe('aspect_ratio');
    expect(check({ seed: 3 })).toBe('seed');
    expect(check({ negativePrompt: 'rain' })).toBe('negative_prompt');
    expect(check({ images: [first, last] })).toBeNull();
    expect(check({ images: [last] })).toBe('last_frame');
    expect(check({ images: [first, last] }, 'MiniMax-Hailuo-2.3')).toBe('last_frame');
    expect(check({}, 'MiniMax-Hailuo-2.3-Fast')).toBe('image');
    expect(check({ images: [first] }, 'T2V-01')).toBe('image');
    expect(check({}, 'I2V-01')).toBe('image');
    expect(check({ images: [first] }, 'I2V-01')).toBeNull();
    expect(check({ seconds: 10 }, 'T2V-01')).toBe('seconds');
    expect(check({}, 'S2V-01')).toBe('reference_image');
    expect(check({ images: [{ role: 'reference', url: 'https://example.com/face.png' }] }, 'S2V-01')).toBeNull();
    expect(check({}, 'MiniMax-H3')).toBe('model');
    expect(check({ metadata: { duration: 7 } })).toBe('seconds');
  });

  it('sends the model’s defaults and a subject reference; bills per video as the family does', () => {
    const body = (request: Parameters<typeof videoRequest>[0], model: string) =>
      JSON.parse(String(video().submit(channel, videoRequest(request), model).body));
    expect(body({}, 'T2V-01')).toEqual({
      model: 'T2V-01',
      prompt: 'a cat riding a skateboard',
      duration: 6,
      resolution: '720P',
    });
    expect(
      body({ images: [{ role: 'reference', url: 'https://example.com/face.png' }] }, 'S2V-01').subject_reference,
    ).toEqual([{ type: 'character', image: ['https://example.com/face.png'] }]);
    expect(video().ratios(videoRequest({ seconds: 10 }), MODEL)).toEqual({});
  });
});
