import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VideoFunction } from '../src/relay/provider.js';
import { estimateSeedanceTokens } from '../src/relay/providers/doubao-video/billing.js';
import { seedanceUsage } from '../src/relay/providers/doubao-video/response.js';
import { providerFor } from '../src/relay/providers/registry.js';
import { callVendor } from '../src/relay/tasks/vendor-call.js';
import type { RuntimeChannel } from '../src/relay/types.js';
import type { VideoRequest } from '../src/relay/video-types.js';
import { VIDEO_FILE, vendorChannel, vendorSteps, videoRequest } from './helpers/video-vendor-kit.js';
import { ARK_KEY, startDoubaoVideoMock } from './mock-upstream/providers/doubao-video.js';
import type { VendorMock } from './mock-upstream/providers/vendor-server.js';

// biome-ignore lint/suspicious/noExplicitAny: raw wire bodies; the assertions on them are the type check.
type WireJson = any;

const DOUBAO_VIDEO_TYPE = 54;
const VOLCENGINE_TYPE = 45;
const PRO = 'doubao-seedance-1-0-pro-250528';

const request = (overrides: Partial<VideoRequest> = {}) =>
  videoRequest({ model: PRO, prompt: 'a kite over the sea', ...overrides });

describe('Seedance on Volcengine Ark (types 54 and 45) against its mock', () => {
  let mock: VendorMock;
  let channel: RuntimeChannel;
  const provider = providerFor(DOUBAO_VIDEO_TYPE)!;
  const video = provider.functions.video as VideoFunction;

  beforeAll(async () => {
    mock = await startDoubaoVideoMock();
    channel = vendorChannel(DOUBAO_VIDEO_TYPE, mock, ARK_KEY);
    expect(provider.functions.video).toBeDefined();
  });
  afterAll(() => mock.close());

  const vendor = (model = PRO, on = channel) => vendorSteps(provider, on, model);
  /** Submits under the request's own model, as the routes do. */
  const submit = (videoRequest: VideoRequest) => vendor(videoRequest.model).submitted(videoRequest);

  it('submits with the Bearer key and parameters as body fields, polls to completed; the url serves the video', async () => {
    const id = await submit(request({ seconds: 10, aspectRatio: '9:16', resolution: '720p', seed: 7 }));
    expect(id).toMatch(/^cgt-/);
    const sent = mock.requests.at(-1)!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/api/v3/contents/generations/tasks');
    expect(sent.headers.authorization).toBe(`Bearer ${ARK_KEY}`);
    expect(sent.body as WireJson).toEqual({
      model: PRO,
      content: [{ type: 'text', text: 'a kite over the sea' }],
      duration: 10,
      resolution: '720p',
      ratio: '9:16',
      seed: 7,
    });

    const done = await vendor().progress(id);
    const asked = mock.requests.at(-1)!;
    expect(asked.method).toBe('GET');
    expect(asked.path).toBe(`/api/v3/contents/generations/tasks/${id}`);
    expect(asked.headers.authorization).toBe(`Bearer ${ARK_KEY}`);
    expect(done).toMatchObject({ upstreamId: id, status: 'completed', progress: 100, seconds: 10 });
    const file = await fetch(done.url!);
    expect(file.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await file.arrayBuffer()).equals(VIDEO_FILE)).toBe(true);
  });

  it('the finished answer carries the tokens Ark counted, and they match the token estimate', async () => {
    const videoRequest = request({ seconds: 5, resolution: '720p' });
    const id = await submit(videoRequest);
    const answer = await vendor().poll(id);
    // 1280 × 720 × 24 fps × 5 s / 1024
    expect(seedanceUsage(answer.json)).toEqual({ completionTokens: 108000, totalTokens: 108000 });
    expect(estimateSeedanceTokens(videoRequest, PRO)).toBe(108000);
    // 1.0 pro makes 1080p when no tier is asked.
    expect(estimateSeedanceTokens(request(), PRO)).toBe(243000);
    expect(seedanceUsage({ status: 'running' })).toBeNull();
  });

  it('reports a [progress] task as in progress (Ark gives no percent: 0) and then completed', async () => {
    const id = await submit(request({ prompt: 'tide [progress]' }));
    expect(await vendor().progress(id)).toMatchObject({ status: 'in_progress', progress: 0 });
    expect(await vendor().progress(id)).toMatchObject({ status: 'completed', progress: 100 });
  });

  it('reports a [fail] task as failed with Ark’s error message', async () => {
    const id = await submit(request({ prompt: 'storm [fail]' }));
    expect(await vendor().progress(id)).toMatchObject({
      status: 'failed',
      reason: 'The request failed because the output video may contain sensitive information.',
    });
  });

  it('a [slow] task stays in progress; a [no-url] task completes without a url', async () => {
    const slow = await submit(request({ prompt: 'snail [slow]' }));
    expect(await vendor().progress(slow)).toMatchObject({ status: 'in_progress' });
    expect(await vendor().progress(slow)).toMatchObject({ status: 'in_progress' });
    const empty = await submit(request({ prompt: 'void [no-url]' }));
    const done = await vendor().progress(empty);
    expect(done.status).toBe('completed');
    expect(done.url).toBeUndefined();
  });

  it('throws on a [garbage] poll answer and on one without a status; maps cancelled and unknown states', async () => {
    const id = await submit(request({ prompt: 'noise [garbage]' }));
    const answer = await vendor().poll(id);
    expect(answer.status).toBe(200);
    expect(() => video.readPoll(answer.json, id)).toThrow();
    expect(() => video.readPoll({ id, content: {} }, id)).toThrow(/status/);
    expect(video.readPoll({ id, status: 'cancelled' }, id)).toMatchObject({
      status: 'failed',
      reason: 'task cancelled',
    });
    expect(video.readPoll({ id, status: 'warming_up' }, id)).toMatchObject({ status: 'in_progress' });
  });

  it('a [500] poll answers HTTP 500 in Ark’s error shape, which error() reads', async () => {
    const id = await submit(request({ prompt: 'crash [500]' }));
    const answer = await vendor().poll(id);
    expect(answer.status).toBe(500);
    expect(provider.error(answer.status, answer.text)).toMatchObject({
      status: 500,
      type: 'InternalServerError',
      code: 'InternalServiceError',
    });
  });

  it('a [refuse] prompt is refused at submit with Ark’s 400 InputTextSensitiveContentDetected', async () => {
    const { answer } = await vendor().submit(request({ prompt: 'bad [refuse]' }));
    expect(answer.status).toBe(400);
    const error = provider.error(answer.status, answer.text);
    expect(error).toMatchObject({ status: 400, code: 'InputTextSensitiveContentDetected', type: 'BadRequest' });
    expect(error.message).toMatch(/sensitive information/);
    expect(video.readSubmit({ id: 'cgt-1' })).toEqual({ upstreamId: 'cgt-1' });
    expect(() => video.readSubmit({})).toThrow(/id/);
  });

  it('a wrong key is refused with Ark’s 401 AuthenticationError', async () => {
    const wrong = { ...channel, key: 'ark-wrong' };
    const { answer } = await vendor(PRO, wrong).submit(request());
    expect(answer.status).toBe(401);
    expect(provider.error(answer.status, answer.text)).toMatchObject({
      status: 401,
      code: 'AuthenticationError',
      type: 'Unauthorized',
    });
    expect((await vendor(PRO, wrong).poll('cgt-x')).status).toBe(401);
  });

  it('first and last frames go as image_url items with their roles; bytes become a data: URI; size → ratio + tier', async () => {
    const bytes = Buffer.from('fake jpeg');
    await submit(
      request({
        model: 'doubao-seedance-1-0-lite-i2v-250428',
        size: '1920x1080',
        images: [
          { role: 'first_frame', url: 'https://img.example/first.png' },
          { role: 'last_frame', bytes, mimeType: 'image/jpeg' },
        ],
        metadata: { camera_fixed: true, watermark: false, model: 'cheaper-model' },
      }),
    );
    expect(mock.requests.at(-1)!.body as WireJson).toEqual({
      model: 'doubao-seedance-1-0-lite-i2v-250428',
      content: [
        { type: 'text', text: 'a kite over the sea' },
        { type: 'image_url', image_url: { url: 'https://img.example/first.png' }, role: 'first_frame' },
        {
          type: 'image_url',
          image_url: { url: `data:image/jpeg;base64,${bytes.toString('base64')}` },
          role: 'last_frame',
        },
      ],
      duration: 5,
      resolution: '1080p',
      ratio: '16:9',
      camera_fixed: true,
      watermark: false,
    });
  });

  it('reference images go with role reference_image', async () => {
    await submit(
      request({
        model: 'doubao-seedance-1-0-lite-i2v-250428',
        images: [
          { role: 'reference', url: 'https://img.example/a.png' },
          { role: 'reference', url: 'https://img.example/b.png' },
        ],
      }),
    );
    const content = (mock.requests.at(-1)!.body as WireJson).content;
    expect(content.slice(1)).toEqual([
      { type: 'image_url', image_url: { url: 'https://img.example/a.png' }, role: 'reference_image' },
      { type: 'image_url', image_url: { url: 'https://img.example/b.png' }, role: 'reference_image' },
    ]);
  });

  it('remove() deletes a finished task at Ark', async () => {
    const id = await submit(request());
    await vendor().progress(id);
    const removed = await callVendor(provider, channel, video.remove!(channel, id));
    expect(removed.status).toBe(200);
    expect(mock.requests.at(-1)).toMatchObject({ method: 'DELETE', path: `/api/v3/contents/generations/tasks/${id}` });
    const gone = await vendor().poll(id);
    expect(gone.status).toBe(404);
    expect(provider.error(gone.status, gone.text).code).toBe('ResourceNotFound');
  });

  it('the chat type 45 (VolcEngine) keeps its chat and gains the same video function', async () => {
    const volc = providerFor(VOLCENGINE_TYPE);
    expect(volc?.functions.chat).toBeDefined();
    expect(volc?.functions.video).toBe(video);
    const volcChannel = { ...channel, id: 45, type: VOLCENGINE_TYPE };
    const answer = await callVendor(volc!, volcChannel, volc!.functions.video!.submit(volcChannel, request(), PRO));
    expect(answer.status).toBe(200);
    expect(volc!.functions.video!.readSubmit(answer.json)).toHaveProperty('upstreamId');
    expect(mock.requests.at(-1)!.path).toBe('/api/v3/contents/generations/tasks');
  });

  it('unsupported() names what the model cannot make', () => {
    const url = 'https://img.example/x.png';
    expect(video.unsupported(request(), PRO)).toBeNull();
    expect(video.unsupported(request({ seconds: 12 }), PRO)).toBeNull();
    expect(video.unsupported(request({ seconds: 13 }), PRO)).toBe('seconds');
    expect(video.unsupported(request({ seconds: 1 }), PRO)).toBe('seconds');
    expect(video.unsupported(request({ seconds: 3 }), 'doubao-seedance-1-5-pro-251215')).toBe('seconds');
    expect(video.unsupported(request({ seconds: 15 }), 'doubao-seedance-2-0-260128')).toBeNull();
    expect(video.unsupported(request({ metadata: { duration: 20 } }), PRO)).toBe('seconds');
    expect(video.unsupported(request({ resolution: '4k' }), PRO)).toBe('resolution');
    expect(video.unsupported(request({ resolution: '1080p' }), 'doubao-seedance-2-0-fast-260128')).toBe('resolution');
    expect(video.unsupported(request({ size: '1920x1080' }), 'doubao-seedance-2-0-fast-260128')).toBe('size');
    expect(video.unsupported(request({ size: '1000x300' }), PRO)).toBe('size');
    expect(video.unsupported(request({ aspectRatio: '2:1' }), PRO)).toBe('aspect_ratio');
    expect(video.unsupported(request({ negativePrompt: 'blur' }), PRO)).toBe('negative_prompt');
    expect(video.unsupported(request({ images: [{ role: 'last_frame', url }] }), PRO)).toBe('last_frame');
    expect(
      video.unsupported(
        request({
          images: [
            { role: 'first_frame', url },
            { role: 'last_frame', url },
          ],
        }),
        'doubao-seedance-1-0-pro-fast-251015',
      ),
    ).toBe('last_frame');
    expect(
      video.unsupported(request({ images: [{ role: 'first_frame', url }] }), 'doubao-seedance-1-0-lite-t2v-250428'),
    ).toBe('image');
    expect(video.unsupported(request(), 'doubao-seedance-1-0-lite-i2v-250428')).toBe('image');
    expect(video.unsupported(request({ images: [{ role: 'reference', url }] }), PRO)).toBe('image');
    const five = Array.from({ length: 5 }, () => ({ role: 'reference' as const, url }));
    expect(video.unsupported(request({ images: five }), 'doubao-seedance-1-0-lite-i2v-250428')).toBe('image');
    expect(video.unsupported(request({ images: five }), 'doubao-seedance-2-0-260128')).toBeNull();
    expect(video.unsupported(request({ seconds: 60 }), 'seedance-next')).toBeNull();
  });

  it('ratios() are the family’s Seedance 2.0 tiers; the 1.x models are one price', () => {
    const V2 = 'doubao-seedance-2-0-260128';
    const videoInput = { content: [{ type: 'video_url', video_url: { url: 'https://v.example/in.mp4' } }] };
    expect(video.ratios(request({ resolution: '1080p', seconds: 10 }), PRO)).toEqual({});
    expect(video.ratios(request({ resolution: '720p' }), V2)).toEqual({});
    expect(video.ratios(request({ resolution: '1080p' }), V2)).toEqual({ resolution: 51 / 46 });
    expect(video.ratios(request({ resolution: '720p', metadata: videoInput }), V2)).toEqual({ video_input: 28 / 46 });
    const hdVideo = video.ratios(request({ resolution: '1080p', metadata: videoInput }), V2);
    expect(hdVideo).toEqual({ resolution: 51 / 46, video_input: 31 / 51 });
    expect((hdVideo.resolution ?? 0) * (hdVideo.video_input ?? 0)).toBeCloseTo(31 / 46, 12);
    expect(video.ratios(request({ metadata: videoInput }), 'doubao-seedance-2-0-fast-260128')).toEqual({
      video_input: 22 / 37,
    });
  });
});
