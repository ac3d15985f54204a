import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VideoFunction } from '../src/relay/provider.js';
import { providerFor } from '../src/relay/providers/registry.js';
import type { RuntimeChannel } from '../src/relay/types.js';
import type { VideoRequest } from '../src/relay/video-types.js';
import { VIDEO_FILE, vendorChannel, vendorSteps, videoRequest } from './helpers/video-vendor-kit.js';
import { JIMENG_ACCESS_KEY, JIMENG_KEY, startJimengVideoMock } from './mock-upstream/providers/jimeng-video.js';
import type { VendorMock } from './mock-upstream/providers/vendor-server.js';

// biome-ignore lint/suspicious/noExplicitAny: raw wire bodies; the assertions on them are the type check.
type WireJson = any;

const MODEL = 'jimeng_vgfm_t2v_l20';

const request = (overrides: Partial<VideoRequest> = {}) =>
  videoRequest({ model: MODEL, prompt: 'a lantern drifting over a lake', ...overrides });

describe('Jimeng video (type 51) against its mock', () => {
  let mock: VendorMock;
  let channel: RuntimeChannel;
  const provider = providerFor(51)!;
  const video = provider.functions.video as VideoFunction;

  beforeAll(async () => {
    mock = await startJimengVideoMock();
    channel = vendorChannel(51, mock, JIMENG_KEY);
    expect(provider.functions.video).toBeDefined();
  });
  afterAll(() => mock.close());

  const vendor = (model = MODEL, on = channel) => vendorSteps(provider, on, model);

  it('makes a video: submit, poll to completed, and the url serves the file', async () => {
    const id = await vendor().submitted(request({ seconds: 10, size: '1280x720', seed: 7 }));
    expect(id).toMatch(/^jimeng_vgfm_t2v_l20:7\d+$/);
    const answer = await vendor().poll(id);
    expect(answer.status).toBe(200);
    const progress = video.readPoll(answer.json, id);
    expect(progress).toMatchObject({ upstreamId: id, status: 'completed', progress: 100 });
    const file = await fetch(progress.url!);
    expect(file.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await file.arrayBuffer()).equals(VIDEO_FILE)).toBe(true);

    const [sent, polled] = mock.requests.slice(-3);
    expect(sent!.path).toBe('/');
    expect(sent!.query).toEqual({ Action: 'CVSync2AsyncSubmitTask', Version: '2022-08-31' });
    expect(sent!.body as WireJson).toEqual({
      req_key: MODEL,
      prompt: 'a lantern drifting over a lake',
      seed: 7,
      frames: 241,
      aspect_ratio: '16:9',
    });
    expect(polled!.query).toEqual({ Action: 'CVSync2AsyncGetResult', Version: '2022-08-31' });
    expect(polled!.body as WireJson).toEqual({ req_key: MODEL, task_id: id.split(':')[1] });
  });

  it('signs every call with Volcengine signature V4 over the body as sent', async () => {
    const id = await vendor().submitted(request());
    await vendor().poll(id);
    for (const sent of mock.requests.slice(-2)) {
      expect(sent.headers.authorization).toMatch(
        new RegExp(
          `^HMAC-SHA256 Credential=${JIMENG_ACCESS_KEY}/\\d{8}/cn-north-1/cv/request, ` +
            'SignedHeaders=content-type;host;x-content-sha256;x-date, Signature=[0-9a-f]{64}$',
        ),
      );
      expect(sent.headers['x-date']).toMatch(/^\d{8}T\d{6}Z$/);
      expect(sent.headers['x-content-sha256']).toBe(createHash('sha256').update(sent.raw).digest('hex'));
    }
    expect((mock.requests.at(-2)!.body as WireJson).seed).toBe(-1);
    expect((mock.requests.at(-2)!.body as WireJson).frames).toBe(121);
  });

  it('maps 3.0 models to their req_key by the frames given, and polls under that req_key', async () => {
    const first = { role: 'first_frame' as const, url: 'https://example.com/first.png' };
    const last = { role: 'last_frame' as const, url: 'https://example.com/last.png' };
    const cases: Array<[string, VideoRequest, string]> = [
      ['jimeng_v30', request(), 'jimeng_t2v_v30'],
      ['jimeng_v30_1080p', request(), 'jimeng_t2v_v30_1080p'],
      ['jimeng_v30_1080p', request({ images: [first] }), 'jimeng_i2v_first_v30_1080'],
      ['jimeng_v30', request({ images: [first, last] }), 'jimeng_i2v_first_tail_v30'],
      ['jimeng_v30_pro', request({ images: [first] }), 'jimeng_ti2v_v30_pro'],
    ];
    for (const [model, videoRequest, reqKey] of cases) {
      const id = await vendor(model).submitted(videoRequest);
      expect(id.startsWith(`${reqKey}:`)).toBe(true);
      expect((mock.requests.at(-1)!.body as WireJson).req_key).toBe(reqKey);
      // The mock refuses a poll under another req_key, so completing proves the id carried the right one.
      expect((await vendor(model).progress(id)).status).toBe('completed');
    }
    const both = mock.requests.filter((sent) => (sent.body as WireJson)?.req_key === 'jimeng_i2v_first_tail_v30')[0]!;
    expect((both.body as WireJson).image_urls).toEqual([first.url, last.url]);
  });

  it('sends uploaded and data: frames as bare base64, and passes metadata through', async () => {
    const bytes = Buffer.from('png-bytes');
    await vendor('jimeng_vgfm_i2v_l20').submitted(
      request({
        images: [{ role: 'first_frame', bytes, mimeType: 'image/png' }],
        metadata: { aspect_ratio: '9:16' },
      }),
    );
    expect(mock.requests.at(-1)!.body as WireJson).toMatchObject({
      req_key: 'jimeng_vgfm_i2v_l20',
      binary_data_base64: [bytes.toString('base64')],
      aspect_ratio: '9:16',
    });
    await vendor().submitted(request({ images: [{ role: 'first_frame', url: 'data:image/jpeg;base64,QUJD' }] }));
    expect((mock.requests.at(-1)!.body as WireJson).binary_data_base64).toEqual(['QUJD']);
  });

  it('[progress] is queued, then generating, then done', async () => {
    const id = await vendor().submitted(request({ prompt: 'slowly [progress]' }));
    expect(await vendor().progress(id)).toMatchObject({ status: 'in_progress', progress: 0 });
    expect(await vendor().progress(id)).toMatchObject({ status: 'completed', progress: 100 });
    expect(video.readPoll({ code: 10000, data: { status: 'in_queue' } }, id)).toMatchObject({ status: 'queued' });
  });

  it('[fail] fails with a reason; [no-url] completes without a url; [slow] keeps generating', async () => {
    const failed = await vendor().submitted(request({ prompt: 'doomed [fail]' }));
    expect(await vendor().progress(failed)).toEqual({
      upstreamId: failed,
      status: 'failed',
      progress: 0,
      reason: 'Jimeng task not found',
    });
    const noUrl = await vendor().progress(await vendor().submitted(request({ prompt: 'lost [no-url]' })));
    expect(noUrl.status).toBe('completed');
    expect(noUrl.url).toBeUndefined();
    const slow = await vendor().submitted(request({ prompt: 'forever [slow]' }));
    for (let i = 0; i < 3; i++) expect((await vendor().progress(slow)).status).toBe('in_progress');
    expect(video.readPoll({ code: 50411, message: 'Pre Img Risk Not Pass' }, 'x')).toMatchObject({
      status: 'failed',
      reason: 'Pre Img Risk Not Pass',
    });
  });

  it('[garbage]: readPoll throws on a 200 that is not JSON, and on an answer without a status', async () => {
    const id = await vendor().submitted(request({ prompt: 'noise [garbage]' }));
    const answer = await vendor().poll(id);
    expect(answer.status).toBe(200);
    expect(() => video.readPoll(answer.json, id)).toThrow();
    expect(() => video.readPoll({ code: 10000, data: {} }, id)).toThrow(/status/);
  });

  it("[500]: the poll answers 500 and error() reads the visual API's envelope", async () => {
    const id = await vendor().submitted(request({ prompt: 'boom [500]' }));
    const answer = await vendor().poll(id);
    expect(answer.status).toBe(500);
    expect(provider.error(answer.status, answer.text)).toEqual({
      status: 500,
      message: 'Internal Error',
      type: 'jimeng_error',
      code: '50500',
    });
  });

  it('[refuse]: the submit answers 400 code 50412; a 2xx answer with another code is a refusal', async () => {
    const { answer } = await vendor().submit(request({ prompt: 'forbidden [refuse]' }));
    expect(answer.status).toBe(400);
    expect(provider.error(answer.status, answer.text)).toMatchObject({
      code: '50412',
      message: 'Pre Text Risk Not Pass',
    });
    expect(video.readSubmit({ code: 50429, message: 'Request Has Reached API Limit', data: null })).toEqual({
      refused: 'Request Has Reached API Limit',
    });
  });

  it("a wrong secret or an unknown access key gets the gateway's 401", async () => {
    const wrong = await vendor(MODEL, { ...channel, key: `${JIMENG_ACCESS_KEY}|not-the-secret` }).submit(request());
    expect(wrong.answer.status).toBe(401);
    expect(provider.error(wrong.answer.status, wrong.answer.text)).toMatchObject({
      status: 401,
      type: 'volcengine_error',
      code: 'SignatureDoesNotMatch',
    });
    const unknown = await vendor(MODEL, { ...channel, key: 'AKLTsomeoneElse|mockJimengSecretKey==' }).submit(request());
    expect(provider.error(unknown.answer.status, unknown.answer.text)).toMatchObject({
      status: 401,
      code: 'InvalidAccessKey',
    });
    const unsigned = await fetch(`${mock.baseUrl}/?Action=CVSync2AsyncSubmitTask&Version=2022-08-31`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(unsigned.status).toBe(401);
  });

  it('unsupported(): durations, shapes, resolution, negative prompt and frames', () => {
    const url = (role: 'first_frame' | 'last_frame' | 'reference') => ({
      role,
      url: `https://example.com/${role}.png`,
    });
    const cases: Array<[Partial<VideoRequest>, string, string | null]> = [
      [{}, MODEL, null],
      [{ seconds: 5, aspectRatio: '21:9' }, MODEL, null],
      [{ seconds: 10, size: '1024x768' }, MODEL, null],
      [{ seconds: 6 }, MODEL, 'seconds'],
      [{ size: '1000x700' }, MODEL, 'size'],
      [{ aspectRatio: '2:1' }, MODEL, 'aspect_ratio'],
      [{ resolution: '720p' }, MODEL, 'resolution'],
      [{ negativePrompt: 'blur' }, MODEL, 'negative_prompt'],
      [{ images: [url('reference')] }, MODEL, 'image'],
      [{ images: [url('last_frame')] }, 'jimeng_v30', 'last_frame'],
      [{ images: [url('first_frame'), url('last_frame')] }, 'jimeng_vgfm_i2v_l20', 'last_frame'],
      [{ images: [url('first_frame'), url('last_frame')] }, 'jimeng_v30_pro', 'last_frame'],
      [{ images: [url('first_frame'), url('last_frame')] }, 'jimeng_v30_1080p', null],
      [{ images: [url('first_frame'), { role: 'last_frame', bytes: Buffer.from('x') }] }, 'jimeng_v30', 'image'],
    ];
    for (const [overrides, model, expected] of cases)
      expect(video.unsupported(request(overrides), model)).toBe(expected);
  });

  it('ratios(): none, as the family (a Jimeng task costs the model price per call)', () => {
    expect(video.ratios(request({ seconds: 10 }), MODEL)).toEqual({});
  });
});
