import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerFor } from '../src/relay/providers/registry.js';
import { openVendorCall } from '../src/relay/tasks/vendor-call.js';
import type { RuntimeChannel, UpstreamCall } from '../src/relay/types.js';
import {
  bytesOf,
  PIXEL_PNG,
  VIDEO_FILE,
  vendorChannel,
  vendorSteps,
  videoRequest,
} from './helpers/video-vendor-kit.js';
import { GEMINI_VIDEO_KEY, startGeminiVideoMock } from './mock-upstream/providers/gemini-video.js';
import type { VendorMock } from './mock-upstream/providers/vendor-server.js';

// biome-ignore lint/suspicious/noExplicitAny: raw wire bodies; the assertions on them are the type check.
type WireJson = any;

const MODEL = 'veo-3.0-generate-001';

describe('Veo on the Gemini API (type 24)', () => {
  let mock: VendorMock;
  let channel: RuntimeChannel;
  const provider = providerFor(24)!;
  const steps = (model = MODEL, on = () => channel) => vendorSteps(provider, on(), model);

  beforeAll(async () => {
    mock = await startGeminiVideoMock();
    channel = vendorChannel(24, mock, GEMINI_VIDEO_KEY);
  });
  afterAll(() => mock.close());

  it('keeps its chat and gains video', () => {
    expect(provider.functions.chat).toBeDefined();
    expect(provider.functions.video).toBeDefined();
  });

  it('submits predictLongRunning with the key, polls the operation and downloads the file with the key', async () => {
    const vendor = steps();
    const from = mock.requests.length;
    const upstreamId = await vendor.submitted(
      videoRequest({
        seconds: 8,
        size: '1280x720',
        negativePrompt: 'blurry',
        images: [{ role: 'first_frame', url: `data:image/png;base64,${PIXEL_PNG.toString('base64')}` }],
        metadata: { personGeneration: 'allow_adult' },
      }),
    );
    expect(upstreamId).toMatch(/^models\/veo-3\.0-generate-001\/operations\/[0-9a-f]{16}$/);
    const submit = mock.requests[from]!;
    expect(submit.method).toBe('POST');
    expect(submit.path).toBe(`/v1beta/models/${MODEL}:predictLongRunning`);
    expect(submit.headers['x-goog-api-key']).toBe(GEMINI_VIDEO_KEY);
    expect(submit.body as WireJson).toEqual({
      instances: [
        {
          prompt: 'a cat riding a skateboard',
          image: { bytesBase64Encoded: PIXEL_PNG.toString('base64'), mimeType: 'image/png' },
        },
      ],
      parameters: {
        durationSeconds: 8,
        aspectRatio: '16:9',
        resolution: '720p',
        negativePrompt: 'blurry',
        personGeneration: 'allow_adult',
      },
    });

    const progress = await vendor.progress(upstreamId);
    expect(mock.requests.at(-1)!.path).toBe(`/v1beta/${upstreamId}`);
    expect(progress).toMatchObject({ upstreamId, status: 'completed', progress: 100 });
    expect(progress.url).toMatch(new RegExp(`^${mock.baseUrl}/v1beta/files/[0-9a-f]{16}:download\\?alt=media$`));

    // content(): the keyed call, answered by a redirect to a signed URL, followed once without the key.
    const video = vendor.video;
    const before = mock.requests.length;
    const file = await video.content!(channel, upstreamId, progress.url, (call) =>
      openVendorCall(provider, channel, call),
    );
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('video/mp4');
    expect((await bytesOf(file)).equals(VIDEO_FILE)).toBe(true);
    const [asked, signed] = mock.requests.slice(before);
    expect(asked!.headers['x-goog-api-key']).toBe(GEMINI_VIDEO_KEY);
    expect(signed!.path).toMatch(/^\/signed-video\/[0-9a-f]{16}$/);
    expect(signed!.headers['x-goog-api-key']).toBeUndefined();
  });

  it('fetches a file only from the channel base URL, whatever host the operation named', async () => {
    const { video } = steps();
    // The first call content() makes, recorded and stopped there.
    const firstCall = async (on: RuntimeChannel, url: string | undefined) => {
      let made: UpstreamCall | undefined;
      await video.content!(on, 'x', url, async (call) => {
        made = call;
        throw new Error('recorded');
      }).catch((error: Error) => {
        if (error.message !== 'recorded') throw error;
      });
      return made;
    };
    const call = (await firstCall(
      channel,
      'https://generativelanguage.googleapis.com/v1beta/files/abc:download?alt=media',
    ))!;
    expect(call.url).toBe(`${mock.baseUrl}/v1beta/files/abc:download?alt=media`);
    expect(call.headers['x-goog-api-key']).toBe(GEMINI_VIDEO_KEY);
    const proxied = await firstCall({ ...channel, baseUrl: 'https://proxy.example/google/' }, call.url);
    expect(proxied!.url).toBe('https://proxy.example/google/v1beta/files/abc:download?alt=media');
    await expect(firstCall(channel, 'https://evil.example/steal')).rejects.toThrow();
    await expect(firstCall(channel, undefined)).rejects.toThrow();
  });

  it('a [progress] operation runs (no percentage from Google: 0) then completes', async () => {
    const vendor = steps();
    const upstreamId = await vendor.submitted(videoRequest({ prompt: 'slowly [progress]' }));
    expect(await vendor.progress(upstreamId)).toMatchObject({ status: 'in_progress', progress: 0 });
    expect(await vendor.progress(upstreamId)).toMatchObject({ status: 'completed', progress: 100 });
  });

  it('[fail] is failed with the operation error; [no-url] completes without a file', async () => {
    const vendor = steps();
    const failed = await vendor.progress(await vendor.submitted(videoRequest({ prompt: 'doomed [fail]' })));
    expect(failed).toMatchObject({ status: 'failed', progress: 100 });
    expect(failed.reason).toContain('asked to fail');
    const bare = await vendor.progress(await vendor.submitted(videoRequest({ prompt: 'nothing [no-url]' })));
    expect(bare).toMatchObject({ status: 'completed' });
    expect(bare.url).toBeUndefined();
  });

  it('a safety-filtered operation (done, no video, raiMediaFilteredCount) is failed with its reason', () => {
    const progress = steps().video.readPoll(
      {
        name: 'models/veo/operations/1',
        done: true,
        response: { generateVideoResponse: { raiMediaFilteredCount: 1, raiMediaFilteredReasons: ['celebrity'] } },
      },
      'models/veo/operations/1',
    );
    expect(progress).toMatchObject({ status: 'failed', reason: 'celebrity' });
  });

  it('[garbage] cannot be read (readPoll throws); [500] is read by error()', async () => {
    const vendor = steps();
    const garbage = await vendor.poll(await vendor.submitted(videoRequest({ prompt: 'x [garbage]' })));
    expect(garbage.status).toBe(200);
    expect(() => vendor.video.readPoll(garbage.json, 'id')).toThrow();
    expect(() => vendor.video.readPoll({ unrelated: true }, 'id')).toThrow();
    const failing = await vendor.poll(await vendor.submitted(videoRequest({ prompt: 'x [500]' })));
    expect(failing.status).toBe(500);
    expect(provider.error(failing.status, failing.text)).toMatchObject({
      status: 500,
      message: 'Internal error encountered.',
      type: 'INTERNAL',
    });
  });

  it('[refuse] and a wrong key are refused in Google’s error body', async () => {
    const refused = await steps().submit(videoRequest({ prompt: 'forbidden [refuse]' }));
    expect(refused.answer.status).toBe(400);
    expect(provider.error(400, refused.answer.text)).toMatchObject({ type: 'INVALID_ARGUMENT' });
    expect(provider.error(400, refused.answer.text).message).toContain('usage guidelines');

    const wrong = await steps(MODEL, () => ({ ...channel, key: 'AIza-wrong' })).submit(videoRequest());
    expect(wrong.answer.status).toBe(400);
    const error = provider.error(400, wrong.answer.text);
    expect(error.message).toBe('API key not valid. Please pass a valid API key.');
    expect(provider.disablesChannel?.(error)).toBe(true);
  });

  it('sends the last frame and reference images to Veo 3.1, 1080p and portrait from a size', async () => {
    const vendor = steps('veo-3.1-generate-preview');
    const from = mock.requests.length;
    await vendor.submitted(
      videoRequest({
        size: '1080x1920',
        images: [
          { role: 'first_frame', bytes: PIXEL_PNG },
          { role: 'last_frame', url: 'data:image/jpeg;base64,/9j/AA==' },
        ],
      }),
    );
    const body = mock.requests[from]!.body as WireJson;
    expect(body.instances[0].lastFrame).toEqual({ bytesBase64Encoded: '/9j/AA==', mimeType: 'image/jpeg' });
    expect(body.instances[0].image.mimeType).toBe('image/png');
    expect(body.parameters).toEqual({ durationSeconds: 8, aspectRatio: '9:16', resolution: '1080p' });
    const refs = vendor.video.submit(
      channel,
      videoRequest({ images: [{ role: 'reference', bytes: PIXEL_PNG, mimeType: 'image/png' }] }),
      'veo-3.1-generate-preview',
    );
    expect(JSON.parse(String(refs.body)).instances[0].referenceImages).toEqual([
      { image: { bytesBase64Encoded: PIXEL_PNG.toString('base64'), mimeType: 'image/png' }, referenceType: 'asset' },
    ]);
  });

  it('names what Veo cannot honour', () => {
    const { video } = steps();
    const check = (overrides: Parameters<typeof videoRequest>[0], model = MODEL) =>
      video.unsupported(videoRequest(overrides), model);
    expect(check({})).toBeNull();
    expect(check({ seconds: 5 })).toBe('seconds');
    expect(check({ seconds: 6, resolution: '1080p' })).toBe('seconds');
    expect(check({ seconds: 8, resolution: '1080p' })).toBeNull();
    expect(check({ resolution: '4k' })).toBe('resolution');
    expect(check({ resolution: '4k' }, 'veo-3.1-generate-preview')).toBeNull();
    expect(check({ size: '1024x1024' })).toBe('size');
    expect(check({ size: '3840x2160' })).toBe('size');
    expect(check({ aspectRatio: '1:1' })).toBe('aspect_ratio');
    expect(check({ seed: 7 })).toBe('seed');
    expect(check({ seconds: 5 }, 'veo-2.0-generate-001')).toBeNull();
    expect(check({ seconds: 4 }, 'veo-2.0-generate-001')).toBe('seconds');
    expect(check({ images: [{ role: 'first_frame', url: 'https://example.com/cat.png' }] })).toBe('image');
    expect(check({ images: [{ role: 'first_frame', url: 'gs://bucket/cat.png' }] })).toBe('image');
    const frames = [
      { role: 'first_frame' as const, bytes: PIXEL_PNG },
      { role: 'last_frame' as const, bytes: PIXEL_PNG },
    ];
    expect(check({ images: frames })).toBe('last_frame');
    expect(check({ images: frames }, 'veo-3.1-generate-preview')).toBeNull();
    expect(check({ images: [frames[1]!] }, 'veo-3.1-generate-preview')).toBe('last_frame');
    const reference = { role: 'reference' as const, bytes: PIXEL_PNG };
    expect(check({ images: [reference] })).toBe('reference_image');
    expect(check({ images: [reference, reference, reference, reference] }, 'veo-3.1-generate-preview')).toBe(
      'reference_image',
    );
    expect(check({ metadata: { durationSeconds: 7 } })).toBe('seconds');
  });

  it('bills per second with the family’s 4k multipliers', () => {
    const { video } = steps();
    expect(video.ratios(videoRequest(), MODEL)).toEqual({ seconds: 8, resolution: 1 });
    expect(video.ratios(videoRequest({ seconds: 4 }), MODEL)).toEqual({ seconds: 4, resolution: 1 });
    expect(video.ratios(videoRequest({ resolution: '1080p' }), MODEL)).toEqual({ seconds: 8, resolution: 1 });
    expect(video.ratios(videoRequest({ resolution: '4k' }), 'veo-3.1-generate-preview')).toEqual({
      seconds: 8,
      resolution: 1.5,
    });
    expect(video.ratios(videoRequest({ size: '3840x2160' }), 'veo-3.1-fast-generate-preview')).toEqual({
      seconds: 8,
      resolution: 2.333333,
    });
    expect(video.ratios(videoRequest({ metadata: { durationSeconds: 6 } }), MODEL)).toEqual({
      seconds: 6,
      resolution: 1,
    });
  });

  it('speaks what Google’s own SDK sends and reads (generateVideos, getVideosOperation, files.download)', async () => {
    const ai = new GoogleGenAI({ apiKey: GEMINI_VIDEO_KEY, httpOptions: { baseUrl: mock.baseUrl } });
    let operation = await ai.models.generateVideos({
      model: MODEL,
      prompt: 'a lighthouse at dusk [progress]',
      image: { imageBytes: PIXEL_PNG.toString('base64'), mimeType: 'image/png' },
      config: { durationSeconds: 8, aspectRatio: '16:9', negativePrompt: 'rain' },
    });
    expect(operation.name).toMatch(/^models\/veo-3\.0-generate-001\/operations\//);
    const sent = mock.requests.at(-1)!.body as WireJson;
    expect(sent.instances[0].image).toEqual({
      bytesBase64Encoded: PIXEL_PNG.toString('base64'),
      mimeType: 'image/png',
    });
    expect(sent.parameters).toMatchObject({ durationSeconds: 8, aspectRatio: '16:9', negativePrompt: 'rain' });
    // What the gateway's provider reads from the same operation the SDK polls.
    const ours = steps().video;
    operation = await ai.operations.getVideosOperation({ operation });
    expect(operation.done).toBeFalsy();
    operation = await ai.operations.getVideosOperation({ operation });
    expect(operation.done).toBe(true);
    const generated = operation.response?.generatedVideos?.[0];
    expect(generated?.video?.uri).toMatch(/:download\?alt=media$/);
    // The same answer, read by the gateway: the SDK's video URI is the file our content() downloads.
    const raw = await steps().poll(operation.name!);
    expect(ours.readPoll(raw.json, operation.name!).url).toBe(generated?.video?.uri);
    const downloadPath = path.join(mkdtempSync(path.join(tmpdir(), 'veo-')), 'video.mp4');
    // The SDK reads an https URI's file id (Google's are https; the mock's is http), then asks for it by id.
    const fileId = /\/files\/([a-z0-9]+):download/.exec(generated!.video!.uri!)![1];
    await ai.files.download({ file: `files/${fileId}`, downloadPath });
    // It asks for the file with its key and follows Google's redirect to the signed URL, as download() does.
    expect(mock.requests.at(-2)!.path).toBe(`/v1beta/files/${fileId}:download`);
    expect(mock.requests.at(-1)!.path).toBe(`/signed-video/${fileId}`);
    expect(readFileSync(downloadPath).equals(VIDEO_FILE)).toBe(true);

    const wrong = new GoogleGenAI({ apiKey: 'AIza-wrong', httpOptions: { baseUrl: mock.baseUrl } });
    await expect(wrong.models.generateVideos({ model: MODEL, prompt: 'x' })).rejects.toMatchObject({ status: 400 });
  });
});
