import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VideoFunction } from '../src/relay/provider.js';
import { klingToken } from '../src/relay/providers/kling/jwt.js';
import { providerFor } from '../src/relay/providers/registry.js';
import type { RuntimeChannel } from '../src/relay/types.js';
import type { VideoProgress, VideoRequest } from '../src/relay/video-types.js';
import { VIDEO_FILE, vendorChannel, vendorSteps, videoRequest } from './helpers/video-vendor-kit.js';
import { KLING_ACCESS_KEY, KLING_KEY, startKlingVideoMock } from './mock-upstream/providers/kling-video.js';
import type { VendorMock } from './mock-upstream/providers/vendor-server.js';

// biome-ignore lint/suspicious/noExplicitAny: raw wire bodies; the assertions on them are the type check.
type WireJson = any;

const MODEL = 'kling-v1-6';

const request = (overrides: Partial<VideoRequest> = {}) =>
  videoRequest({ model: MODEL, prompt: 'a cat surfing a wave', ...overrides });

describe('Kling video (type 50) against its mock', () => {
  let mock: VendorMock;
  let channel: RuntimeChannel;
  const provider = providerFor(50)!;
  const video = provider.functions.video as VideoFunction;

  beforeAll(async () => {
    mock = await startKlingVideoMock();
    channel = vendorChannel(50, mock, KLING_KEY);
    expect(provider.functions.video).toBeDefined();
  });
  afterAll(() => mock.close());

  const vendor = (on = channel) => vendorSteps(provider, on, MODEL);

  it('makes a text video: submit, poll to completed, and the url serves the file', async () => {
    const id = await vendor().submitted(request({ seconds: 10, size: '1280x720', negativePrompt: 'blur' }));
    expect(id).toMatch(/^text2video:Ckl/);
    const answer = await vendor().poll(id);
    expect(answer.status).toBe(200);
    const progress: VideoProgress = video.readPoll(answer.json, id);
    expect(progress).toMatchObject({ upstreamId: id, status: 'completed', progress: 100, seconds: 10 });
    const file = await fetch(progress.url!);
    expect(file.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await file.arrayBuffer()).equals(VIDEO_FILE)).toBe(true);

    const [sent, polled] = mock.requests.slice(-3);
    expect(sent!.method).toBe('POST');
    expect(sent!.path).toBe('/v1/videos/text2video');
    expect(sent!.body as WireJson).toEqual({
      model_name: MODEL,
      prompt: 'a cat surfing a wave',
      mode: 'std',
      duration: '10',
      cfg_scale: 0.5,
      aspect_ratio: '16:9',
      negative_prompt: 'blur',
    });
    expect(polled!.method).toBe('GET');
    expect(polled!.path).toBe(`/v1/videos/text2video/${id.slice('text2video:'.length)}`);
  });

  it('sends a fresh HS256 JWT issued by the access key on submits and polls alike', async () => {
    const id = await vendor().submitted(request());
    await vendor().poll(id);
    for (const sent of mock.requests.slice(-2)) {
      const token = /^Bearer (.+)$/.exec(sent.headers.authorization ?? '')?.[1] ?? '';
      const [header, payload] = token
        .split('.')
        .slice(0, 2)
        .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
      expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
      const now = Math.floor(Date.now() / 1000);
      expect(payload.iss).toBe(KLING_ACCESS_KEY);
      expect(payload.exp - payload.nbf).toBe(1805);
      expect(Math.abs(payload.exp - (now + 1800))).toBeLessThanOrEqual(2);
    }
  });

  it('sends frames to image2video (URL as URL, bytes and data: URIs as bare base64) and polls it there', async () => {
    const bytes = Buffer.from('first-frame-bytes');
    const id = await vendor().submitted(
      request({
        aspectRatio: '9:16',
        images: [
          { role: 'first_frame', bytes, mimeType: 'image/png' },
          { role: 'last_frame', url: `data:image/png;base64,${Buffer.from('tail').toString('base64')}` },
        ],
        metadata: { mode: 'pro', cfg_scale: 0.8, camera_control: { type: 'simple' } },
      }),
    );
    expect(id).toMatch(/^image2video:/);
    const sent = mock.requests.at(-1)!;
    expect(sent.path).toBe('/v1/videos/image2video');
    expect(sent.body as WireJson).toMatchObject({
      image: bytes.toString('base64'),
      image_tail: Buffer.from('tail').toString('base64'),
      aspect_ratio: '9:16',
      mode: 'pro',
      cfg_scale: 0.8,
      camera_control: { type: 'simple' },
      duration: '5',
    });
    const answer = await vendor().poll(id);
    expect(video.readPoll(answer.json, id)).toMatchObject({ status: 'completed', seconds: 5 });
    expect(mock.requests.at(-1)!.path).toMatch(/^\/v1\/videos\/image2video\/Ckl/);

    await vendor().submitted(request({ images: [{ role: 'first_frame', url: 'https://example.com/cat.png' }] }));
    expect((mock.requests.at(-1)!.body as WireJson).image).toBe('https://example.com/cat.png');
  });

  it('[progress] is in progress first, then completed', async () => {
    const id = await vendor().submitted(request({ prompt: 'slowly [progress]' }));
    expect(await vendor().progress(id)).toMatchObject({ status: 'in_progress', progress: 0 });
    expect(await vendor().progress(id)).toMatchObject({ status: 'completed', progress: 100 });
  });

  it('[slow] stays in progress', async () => {
    const id = await vendor().submitted(request({ prompt: 'forever [slow]' }));
    for (let i = 0; i < 3; i++) expect((await vendor().progress(id)).status).toBe('in_progress');
  });

  it("[fail] fails with Kling's reason; [no-url] completes without a url", async () => {
    const failed = await vendor().submitted(request({ prompt: 'doomed [fail]' }));
    expect(await vendor().progress(failed)).toEqual({
      upstreamId: failed,
      status: 'failed',
      progress: 0,
      reason: 'Failure to pass the risk control system',
    });
    const noUrl = await vendor().submitted(request({ prompt: 'lost [no-url]' }));
    const done = await vendor().progress(noUrl);
    expect(done.status).toBe('completed');
    expect(done.url).toBeUndefined();
  });

  it('[garbage]: readPoll throws on a 200 that is not JSON', async () => {
    const id = await vendor().submitted(request({ prompt: 'noise [garbage]' }));
    const answer = await vendor().poll(id);
    expect(answer.status).toBe(200);
    expect(answer.json).toBeNull();
    expect(() => video.readPoll(answer.json, id)).toThrow();
    expect(() => video.readPoll({ code: 0, data: { task_id: 'x' } }, 'text2video:x')).toThrow(/task_status/);
  });

  it("[500]: the poll answers 500 and error() reads Kling's envelope", async () => {
    const id = await vendor().submitted(request({ prompt: 'boom [500]' }));
    const answer = await vendor().poll(id);
    expect(answer.status).toBe(500);
    expect(provider.error(answer.status, answer.text)).toEqual({
      status: 500,
      message: 'Server internal error',
      type: 'kling_error',
      code: '5000',
    });
  });

  it('[refuse]: the submit answers 400 code 1301; a 2xx envelope with a non-zero code is a refusal', async () => {
    const { answer } = await vendor().submit(request({ prompt: 'forbidden [refuse]' }));
    expect(answer.status).toBe(400);
    expect(provider.error(answer.status, answer.text)).toMatchObject({
      status: 400,
      code: '1301',
      type: 'kling_error',
    });
    expect(video.readSubmit({ code: 1102, message: 'Resource pack depleted', request_id: 'r' })).toEqual({
      refused: 'Resource pack depleted',
    });
  });

  it("a wrong secret, an unknown access key and an expired token get Kling's 401", async () => {
    const wrong = { ...channel, key: `${KLING_ACCESS_KEY}|not-the-secret` };
    const { answer } = await vendor(wrong).submit(request());
    expect(answer.status).toBe(401);
    expect(provider.error(answer.status, answer.text)).toEqual({
      status: 401,
      message: 'Authentication failed',
      type: 'kling_error',
      code: '1000',
    });
    expect(
      (await vendor({ ...channel, key: 'someone-else|mock-kling-secret-key' }).submit(request())).answer.status,
    ).toBe(401);
    const stale = klingToken(KLING_ACCESS_KEY, 'mock-kling-secret-key', Math.floor(Date.now() / 1000) - 3600);
    const expired = await fetch(`${mock.baseUrl}/v1/videos/text2video/none`, {
      headers: { authorization: `Bearer ${stale}` },
    });
    expect(expired.status).toBe(401);
    expect(await expired.json()).toMatchObject({ code: 1004 });
  });

  it('unsupported(): durations, shapes, resolution, seed and reference images', () => {
    const cases: Array<[Partial<VideoRequest>, string | null]> = [
      [{}, null],
      [{ seconds: 5 }, null],
      [{ seconds: 10, size: '1920x1080', aspectRatio: '16:9' }, null],
      [{ size: '1024x1024' }, null],
      [{ size: '1080x1920' }, null],
      [{ seconds: 8 }, 'seconds'],
      [{ size: '1024x768' }, 'size'],
      [{ size: 'large' }, 'size'],
      [{ aspectRatio: '4:3' }, 'aspect_ratio'],
      [{ resolution: '1080p' }, 'resolution'],
      [{ seed: 42 }, 'seed'],
      [{ images: [{ role: 'reference', url: 'https://example.com/a.png' }] }, 'image'],
      [{ images: [{ role: 'last_frame', url: 'https://example.com/a.png' }] }, null],
    ];
    for (const [overrides, expected] of cases) expect(video.unsupported(request(overrides), MODEL)).toBe(expected);
  });

  it('ratios(): none, as the family (a Kling task costs the model price per call)', () => {
    expect(video.ratios(request({ seconds: 10, metadata: { mode: 'pro' } }), MODEL)).toEqual({});
  });
});
