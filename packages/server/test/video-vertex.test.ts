import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
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
import type { VertexMock } from './mock-upstream/providers/vertex.js';
import { startVertexVideoMock, VERTEX_API_KEY } from './mock-upstream/providers/vertex-video.js';

// biome-ignore lint/suspicious/noExplicitAny: raw wire bodies; the assertions on them are the type check.
type WireJson = any;

const MODEL = 'veo-3.1-generate-preview';

describe('Veo on Vertex AI (type 41)', () => {
  let mock: VertexMock;
  let channel: RuntimeChannel;
  const provider = providerFor(41)!;
  const video = () => provider.functions.video as VideoFunction;
  const steps = (on = () => channel, model = MODEL) => vendorSteps(provider, on(), model);
  const open = (on: RuntimeChannel) => (call: Parameters<typeof openVendorCall>[2]) =>
    openVendorCall(provider, on, call);
  const storageBefore = process.env.STORAGE_EMULATOR_HOST;

  beforeAll(async () => {
    mock = await startVertexVideoMock();
    const key = JSON.stringify(mock.serviceAccount({ projectId: 'veo-project' }));
    channel = vendorChannel(41, mock, key, 'us-central1');
    process.env.STORAGE_EMULATOR_HOST = mock.baseUrl;
  });
  afterEach(() => {
    process.env.STORAGE_EMULATOR_HOST = mock.baseUrl;
  });
  afterAll(async () => {
    if (storageBefore === undefined) delete process.env.STORAGE_EMULATOR_HOST;
    else process.env.STORAGE_EMULATOR_HOST = storageBefore;
    await mock.close();
  });

  it('keeps its chat and gains video', () => {
    expect(provider.functions.chat).toBeDefined();
    expect(provider.functions.video).toBeDefined();
  });

  it('submits with the service account’s token, polls fetchPredictOperation, and decodes the inline video', async () => {
    const vendor = steps();
    const from = mock.requests.length;
    const upstreamId = await vendor.submitted(
      videoRequest({
        seconds: 8,
        aspectRatio: '9:16',
        seed: 42,
        negativePrompt: 'text overlays',
        images: [
          { role: 'first_frame', url: 'gs://assets/start.png' },
          { role: 'last_frame', bytes: PIXEL_PNG },
        ],
        metadata: { generateAudio: true },
      }),
    );
    expect(upstreamId).toMatch(
      /^projects\/veo-project\/locations\/us-central1\/publishers\/google\/models\/veo-3\.1-generate-preview\/operations\/[0-9a-f]{16}$/,
    );
    // The token exchange, then the submit with the token the mock issued.
    const submit = mock.requests.slice(from).find((request) => request.path.endsWith(':predictLongRunning'))!;
    expect(submit.path).toBe(
      `/v1/projects/veo-project/locations/us-central1/publishers/google/models/${MODEL}:predictLongRunning`,
    );
    expect(mock.issued).toContain(submit.headers.authorization!.replace('Bearer ', ''));
    expect(submit.body as WireJson).toEqual({
      instances: [
        {
          prompt: 'a cat riding a skateboard',
          image: { gcsUri: 'gs://assets/start.png', mimeType: 'image/png' },
          lastFrame: { bytesBase64Encoded: PIXEL_PNG.toString('base64'), mimeType: 'image/png' },
        },
      ],
      parameters: {
        durationSeconds: 8,
        aspectRatio: '9:16',
        negativePrompt: 'text overlays',
        sampleCount: 1,
        seed: 42,
        generateAudio: true,
      },
    });

    const progress = await vendor.progress(upstreamId);
    const poll = mock.requests.at(-1)!;
    expect(poll.path).toBe(
      `/v1/projects/veo-project/locations/us-central1/publishers/google/models/${MODEL}:fetchPredictOperation`,
    );
    expect(poll.body).toEqual({ operationName: upstreamId });
    expect(progress).toMatchObject({ upstreamId, status: 'completed', progress: 100 });
    expect(progress.url?.startsWith('data:video/mp4;base64,')).toBe(true);

    // Inline bytes: nothing to call; content() answers the decoded file.
    const before = mock.requests.length;
    const file = await video().content!(channel, upstreamId, progress.url, open(channel));
    expect(file.headers['content-type']).toBe('video/mp4');
    expect((await bytesOf(file)).equals(VIDEO_FILE)).toBe(true);
    expect(mock.requests.length).toBe(before);
  });

  it('with a storageUri the video is a gs:// object, read from Cloud Storage with the channel’s token', async () => {
    const vendor = steps();
    const upstreamId = await vendor.submitted(videoRequest({ metadata: { storageUri: 'gs://veo-out/runs/' } }));
    const progress = await vendor.progress(upstreamId);
    expect(progress.url).toMatch(/^gs:\/\/veo-out\/runs\/[0-9a-f]{16}\/sample_0\.mp4$/);

    const calls: Parameters<typeof openVendorCall>[2][] = [];
    const file = await video().content!(channel, upstreamId, progress.url, (call) => {
      calls.push(call);
      return open(channel)(call);
    });
    const object = progress.url!.slice('gs://veo-out/'.length);
    expect(calls[0]!.url).toBe(`${mock.baseUrl}/storage/v1/b/veo-out/o/${encodeURIComponent(object)}?alt=media`);
    expect(calls[0]!.headers.authorization).toBeUndefined();
    expect(file.statusCode).toBe(200);
    expect((await bytesOf(file)).equals(VIDEO_FILE)).toBe(true);
    // The token went to storage from the provider's open, never into the call a client could see.
    expect(mock.issued).toContain(mock.requests.at(-1)!.headers.authorization!.replace('Bearer ', ''));

    delete process.env.STORAGE_EMULATOR_HOST;
    let publicCall: Parameters<typeof openVendorCall>[2] | undefined;
    await video().content!(channel, upstreamId, progress.url, async (call) => {
      publicCall = call;
      throw new Error('recorded');
    }).catch(() => undefined);
    expect(publicCall!.url).toMatch(/^https:\/\/storage\.googleapis\.com\/storage\/v1\/b\/veo-out\/o\/runs%2F/);
  });

  it('express mode: an API key goes in x-goog-api-key, on the project-less publisher path', async () => {
    const express = { ...channel, key: VERTEX_API_KEY, other: '' };
    const vendor = steps(() => express, 'veo-3.0-generate-001');
    const from = mock.requests.length;
    const upstreamId = await vendor.submitted(videoRequest());
    expect(mock.requests[from]!.path).toBe('/v1/publishers/google/models/veo-3.0-generate-001:predictLongRunning');
    expect(mock.requests[from]!.headers['x-goog-api-key']).toBe(VERTEX_API_KEY);
    expect(mock.requests[from]!.headers.authorization).toBeUndefined();
    expect(await vendor.progress(upstreamId)).toMatchObject({ status: 'completed' });
    expect(mock.requests.at(-1)!.path).toBe('/v1/publishers/google/models/veo-3.0-generate-001:fetchPredictOperation');
  });

  it('[progress], [fail], [no-url]', async () => {
    const vendor = steps();
    const running = await vendor.submitted(videoRequest({ prompt: 'a river [progress]' }));
    expect(await vendor.progress(running)).toMatchObject({ status: 'in_progress', progress: 0 });
    expect(await vendor.progress(running)).toMatchObject({ status: 'completed', progress: 100 });
    const failed = await vendor.progress(await vendor.submitted(videoRequest({ prompt: 'x [fail]' })));
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed.reason).toContain('asked to fail');
    const bare = await vendor.progress(await vendor.submitted(videoRequest({ prompt: 'x [no-url]' })));
    expect(bare).toMatchObject({ status: 'completed' });
    expect(bare.url).toBeUndefined();
    const filtered = video().readPoll(
      { name: 'n', done: true, response: { raiMediaFilteredCount: 1, raiMediaFilteredReasons: ['unsafe content'] } },
      'n',
    );
    expect(filtered).toMatchObject({ status: 'failed', reason: 'unsafe content' });
  });

  it('[garbage] throws in readPoll; [500] and [refuse] are read by error()', async () => {
    const vendor = steps();
    const garbage = await vendor.poll(await vendor.submitted(videoRequest({ prompt: 'x [garbage]' })));
    expect(() => video().readPoll(garbage.json, 'id')).toThrow();
    const failing = await vendor.poll(await vendor.submitted(videoRequest({ prompt: 'x [500]' })));
    expect(failing.status).toBe(500);
    expect(provider.error(500, failing.text)).toMatchObject({ status: 500, type: 'INTERNAL' });
    const refused = await vendor.submit(videoRequest({ prompt: 'x [refuse]' }));
    expect(refused.answer.status).toBe(400);
    expect(provider.error(400, refused.answer.text).message).toContain('Responsible AI');
  });

  it('a service account the token endpoint does not trust is a 401 before anything reaches Veo', async () => {
    const stranger = await startVertexVideoMock();
    try {
      const key = JSON.stringify({ ...stranger.serviceAccount(), token_uri: mock.tokenUri });
      const from = mock.requests.length;
      const refused = await steps(() => ({ ...channel, key })).submit(videoRequest());
      expect(refused.answer.status).toBe(401);
      expect(provider.error(401, refused.answer.text)).toMatchObject({ type: 'UNAUTHENTICATED' });
      expect(mock.requests.slice(from).some((request) => request.path.includes(':predictLongRunning'))).toBe(false);
    } finally {
      await stranger.close();
    }
  });

  it('takes gs:// images where the Gemini API cannot, and bills as the family does', () => {
    const check = (overrides: Parameters<typeof videoRequest>[0], model = MODEL) =>
      video().unsupported(videoRequest(overrides), model);
    expect(check({ seed: 1 })).toBeNull();
    expect(check({ images: [{ role: 'first_frame', url: 'gs://b/cat.jpg' }] })).toBeNull();
    expect(check({ images: [{ role: 'first_frame', url: 'https://example.com/cat.jpg' }] })).toBe('image');
    expect(check({ seconds: 10 })).toBe('seconds');
    expect(video().ratios(videoRequest({ resolution: '4k' }), MODEL)).toEqual({ seconds: 8, resolution: 1.5 });
    expect(video().ratios(videoRequest({ seconds: 4 }), 'veo-3.0-generate-001')).toEqual({ seconds: 4, resolution: 1 });
  });
});
