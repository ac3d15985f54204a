import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VideoFunction } from '../src/relay/provider.js';
import { providerFor } from '../src/relay/providers/registry.js';
import type { RuntimeChannel } from '../src/relay/types.js';
import type { VideoRequest } from '../src/relay/video-types.js';
import { VIDEO_FILE, vendorChannel, vendorSteps, videoRequest } from './helpers/video-vendor-kit.js';
import type { VendorMock } from './mock-upstream/providers/vendor-server.js';
import { startViduVideoMock, VIDU_KEY } from './mock-upstream/providers/vidu-video.js';

// biome-ignore lint/suspicious/noExplicitAny: raw wire bodies; the assertions on them are the type check.
type WireJson = any;

const VIDU_TYPE = 52;

const request = (overrides: Partial<VideoRequest> = {}) =>
  videoRequest({ model: 'viduq1', prompt: 'a cat on a windowsill', ...overrides });

describe('Vidu (type 52) video vendor against its mock', () => {
  let mock: VendorMock;
  let channel: RuntimeChannel;
  const provider = providerFor(VIDU_TYPE)!;
  const video = provider.functions.video as VideoFunction;

  beforeAll(async () => {
    mock = await startViduVideoMock();
    channel = vendorChannel(VIDU_TYPE, mock, VIDU_KEY);
    expect(provider.functions.video).toBeDefined();
  });
  afterAll(() => mock.close());

  const vendor = (model = 'viduq1', on = channel) => vendorSteps(provider, on, model);
  /** Submits under the request's own model, as the routes do. */
  const submit = (videoRequest: VideoRequest) => vendor(videoRequest.model).submitted(videoRequest);

  it('submits text-to-video with the Token key, polls to completed, and the url serves the video', async () => {
    const id = await submit(request({ seed: 42, aspectRatio: '9:16' }));
    const sent = mock.requests.at(-1)!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/ent/v2/text2video');
    expect(sent.headers.authorization).toBe(`Token ${VIDU_KEY}`);
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.body as WireJson).toEqual({
      model: 'viduq1',
      prompt: 'a cat on a windowsill',
      duration: 5,
      seed: 42,
      aspect_ratio: '9:16',
    });

    const done = await vendor().progress(id);
    const asked = mock.requests.at(-1)!;
    expect(asked.method).toBe('GET');
    expect(asked.path).toBe(`/ent/v2/tasks/${id}/creations`);
    expect(asked.headers.authorization).toBe(`Token ${VIDU_KEY}`);
    expect(done).toMatchObject({ upstreamId: id, status: 'completed', progress: 100 });
    expect(done.url).toBe(`${mock.baseUrl}/files/${id}.mp4`);
    const file = await fetch(done.url!);
    expect(file.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await file.arrayBuffer()).equals(VIDEO_FILE)).toBe(true);
  });

  it('reports a [progress] task as in progress (Vidu gives no percent: 0) and then completed', async () => {
    const id = await submit(request({ prompt: 'waves [progress]' }));
    expect(await vendor().progress(id)).toMatchObject({ status: 'in_progress', progress: 0 });
    expect(await vendor().progress(id)).toMatchObject({ status: 'completed', progress: 100 });
  });

  it('reports a [fail] task as failed with its err_code as the reason', async () => {
    const id = await submit(request({ prompt: 'storm [fail]' }));
    expect(await vendor().progress(id)).toMatchObject({ status: 'failed', reason: 'CreationPolicyViolation' });
  });

  it('a [slow] task stays in progress', async () => {
    const id = await submit(request({ prompt: 'snail [slow]' }));
    expect(await vendor().progress(id)).toMatchObject({ status: 'in_progress' });
    expect(await vendor().progress(id)).toMatchObject({ status: 'in_progress' });
  });

  it('a [no-url] task completes without a url', async () => {
    const id = await submit(request({ prompt: 'void [no-url]' }));
    const done = await vendor().progress(id);
    expect(done.status).toBe('completed');
    expect(done.url).toBeUndefined();
  });

  it('throws on a [garbage] poll answer (not JSON) and on one without a state', async () => {
    const id = await submit(request({ prompt: 'noise [garbage]' }));
    const answer = await vendor().poll(id);
    expect(answer.status).toBe(200);
    expect(answer.json).toBeNull();
    expect(() => video.readPoll(answer.json, id)).toThrow();
    expect(() => video.readPoll({ creations: [] }, id)).toThrow(/state/);
    expect(() => video.readPoll({ state: 'exploded' }, id)).toThrow(/unknown state/);
  });

  it('a [500] poll answers HTTP 500 in Vidu’s error shape, which error() reads', async () => {
    const id = await submit(request({ prompt: 'crash [500]' }));
    const answer = await vendor().poll(id);
    expect(answer.status).toBe(500);
    expect(provider.error(answer.status, answer.text)).toEqual({
      status: 500,
      message: 'internal service failure',
      type: 'vidu_error',
      code: 'InternalServiceFailure',
    });
  });

  it('a [refuse] prompt is refused at submit with Vidu’s 400 AuditSubmitIllegal', async () => {
    const { answer } = await vendor().submit(request({ prompt: 'bad [refuse]' }));
    expect(answer.status).toBe(400);
    expect(provider.error(answer.status, answer.text)).toMatchObject({
      status: 400,
      code: 'AuditSubmitIllegal',
      message: 'submit is illegal',
    });
  });

  it('a 2xx submit answer whose state is failed is a refusal; one without task_id is unreadable', () => {
    expect(video.readSubmit({ task_id: '1', state: 'failed', err_code: 'CreditInsufficient' })).toEqual({
      refused: 'CreditInsufficient',
    });
    expect(video.readSubmit({ task_id: '77', state: 'created' })).toEqual({ upstreamId: '77' });
    expect(() => video.readSubmit({ state: 'created' })).toThrow(/task_id/);
  });

  it('a wrong key is refused with Vidu’s 401 Unauthorized', async () => {
    const wrong = { ...channel, key: 'vda_wrong' };
    const { answer } = await vendor('viduq1', wrong).submit(request());
    expect(answer.status).toBe(401);
    expect(answer.json).toMatchObject({ code: 401, reason: 'Unauthorized', message: 'unauthorized' });
    expect(provider.error(answer.status, answer.text)).toMatchObject({ status: 401, code: 'Unauthorized' });
    const polled = await vendor('viduq1', wrong).poll('1');
    expect(polled.status).toBe(401);
  });

  it('one start frame goes to img2video; bytes become a data: URI; no aspect ratio (the image decides)', async () => {
    const bytes = Buffer.from('fake png bytes');
    await submit(
      request({
        model: 'viduq2-pro',
        seconds: 8,
        size: '1280x720',
        images: [{ role: 'first_frame', bytes, mimeType: 'image/png' }],
        metadata: { movement_amplitude: 'large', bgm: true, model: 'sneaky-cheaper-model' },
      }),
    );
    const sent = mock.requests.at(-1)!;
    expect(sent.path).toBe('/ent/v2/img2video');
    expect(sent.body as WireJson).toEqual({
      model: 'viduq2-pro',
      prompt: 'a cat on a windowsill',
      images: [`data:image/png;base64,${bytes.toString('base64')}`],
      duration: 8,
      resolution: '720p',
      movement_amplitude: 'large',
      bgm: true,
    });
  });

  it('first and last frames go to start-end2video, first frame first', async () => {
    await submit(
      request({
        model: 'vidu2.0',
        images: [
          { role: 'last_frame', url: 'https://img.example/last.png' },
          { role: 'first_frame', url: 'https://img.example/first.png' },
        ],
        resolution: '720P',
      }),
    );
    const sent = mock.requests.at(-1)!;
    expect(sent.path).toBe('/ent/v2/start-end2video');
    expect(sent.body as WireJson).toMatchObject({
      model: 'vidu2.0',
      images: ['https://img.example/first.png', 'https://img.example/last.png'],
      duration: 4,
      resolution: '720p',
    });
  });

  it('reference images go to reference2video as bare viduq2, with the aspect ratio read from size', async () => {
    await submit(
      request({
        model: 'viduq2-turbo',
        size: '1080x1920',
        images: [
          { role: 'reference', url: 'https://img.example/a.png' },
          { role: 'reference', url: 'https://img.example/b.png' },
          { role: 'reference', url: 'https://img.example/c.png' },
        ],
      }),
    );
    const sent = mock.requests.at(-1)!;
    expect(sent.path).toBe('/ent/v2/reference2video');
    expect(sent.body as WireJson).toMatchObject({
      model: 'viduq2',
      images: ['https://img.example/a.png', 'https://img.example/b.png', 'https://img.example/c.png'],
      aspect_ratio: '9:16',
      resolution: '1080p',
      duration: 5,
    });
  });

  it('unsupported() names what the model cannot make', () => {
    const url = 'https://img.example/x.png';
    expect(video.unsupported(request(), 'viduq1')).toBeNull();
    expect(video.unsupported(request({ seconds: 8 }), 'viduq1')).toBe('seconds');
    expect(video.unsupported(request({ resolution: '720p' }), 'viduq1')).toBe('resolution');
    expect(video.unsupported(request({ size: '1280x720' }), 'viduq1')).toBe('size');
    expect(video.unsupported(request({ size: '1920x1080' }), 'viduq1')).toBeNull();
    expect(video.unsupported(request({ size: '1000x300' }), 'viduq2')).toBe('size');
    // Sora's 1792x1024 is 7:4, within 5 % of 16:9; its short side is nearest 1080p.
    expect(video.unsupported(request({ size: '1792x1024' }), 'viduq2')).toBeNull();
    expect(JSON.parse(String(video.submit(channel, request({ size: '1792x1024' }), 'viduq2').body))).toMatchObject({
      aspect_ratio: '16:9',
      resolution: '1080p',
    });
    expect(video.unsupported(request({ size: 'big' }), 'viduq2')).toBe('size');
    expect(video.unsupported(request({ aspectRatio: '4:3' }), 'viduq1')).toBe('aspect_ratio');
    expect(video.unsupported(request({ aspectRatio: '4:3' }), 'viduq2')).toBeNull();
    expect(video.unsupported(request({ seconds: 8, resolution: '1080p' }), 'vidu1.5')).toBe('resolution');
    expect(video.unsupported(request({ seconds: 8, resolution: '720p' }), 'vidu1.5')).toBeNull();
    expect(video.unsupported(request({ seconds: 10 }), 'viduq2')).toBeNull();
    expect(video.unsupported(request({ seconds: 11 }), 'viduq2')).toBe('seconds');
    expect(video.unsupported(request({ seconds: 16 }), 'viduq3-pro')).toBeNull();
    expect(video.unsupported(request({ negativePrompt: 'blur' }), 'viduq1')).toBe('negative_prompt');
    // vidu2.0 has no text-to-video: it needs an image.
    expect(video.unsupported(request(), 'vidu2.0')).toBe('image');
    expect(video.unsupported(request({ images: [{ role: 'first_frame', url }] }), 'vidu2.0')).toBeNull();
    expect(video.unsupported(request({ images: [{ role: 'last_frame', url }] }), 'viduq1')).toBe('last_frame');
    expect(
      video.unsupported(
        request({
          images: [
            { role: 'first_frame', url },
            { role: 'reference', url },
          ],
        }),
        'viduq1',
      ),
    ).toBe('image');
    const four = Array.from({ length: 4 }, () => ({ role: 'reference' as const, url }));
    expect(video.unsupported(request({ images: four }), 'vidu2.0')).toBe('image');
    expect(video.unsupported(request({ images: four }), 'viduq2')).toBeNull();
    expect(video.unsupported(request({ images: four }), 'viduq3-pro')).toBe('image');
    // metadata wins over the common fields in the body, so it is what is checked.
    expect(video.unsupported(request({ metadata: { duration: 8 } }), 'viduq1')).toBe('seconds');
    expect(video.unsupported(request({ seconds: 8, metadata: { duration: 5 } }), 'viduq1')).toBeNull();
    expect(video.unsupported(request({ metadata: { resolution: '720p' } }), 'viduq1')).toBe('resolution');
    // A model this table does not know is bounded by Vidu alone.
    expect(video.unsupported(request({ seconds: 30 }), 'vidu-future')).toBeNull();
  });

  it('ratios() bill per call, as the family (ModelPrice is the price of one video)', () => {
    expect(video.ratios(request({ seconds: 8, resolution: '1080p' }), 'viduq2')).toEqual({});
    expect(video.ratios(request(), 'viduq1')).toEqual({});
  });
});
