import type { Provider, VideoFunction } from '../../src/relay/provider.js';
import type { UpstreamResponse } from '../../src/relay/send.js';
import { callVendor } from '../../src/relay/tasks/vendor-call.js';
import type { RuntimeChannel } from '../../src/relay/types.js';
import type { VideoProgress, VideoRequest } from '../../src/relay/video-types.js';

/** The finished file every video mock serves: what a test compares a download against. */
export { VIDEO_FILE } from '../mock-upstream/providers/video-mock-kit.js';

/** A 1×1 PNG, as a client would upload or inline it. */
export const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** A channel of `type` whose base URL is the vendor's mock (its id is the type: one channel a vendor in these tests). */
export function vendorChannel(type: number, mock: { baseUrl: string }, key: string, other = ''): RuntimeChannel {
  return { id: type, type, name: `video-vendor-${type}`, baseUrl: mock.baseUrl, key, other, organization: null };
}

/** A request as the routes would read it: everything unset unless the test says. */
export function videoRequest(overrides: Partial<VideoRequest> = {}): VideoRequest {
  return {
    model: 'test-model',
    prompt: 'a cat riding a skateboard',
    seconds: null,
    size: null,
    resolution: null,
    aspectRatio: null,
    images: [],
    seed: null,
    negativePrompt: null,
    metadata: {},
    ...overrides,
  };
}

/** A whole upstream answer's bytes. */
export async function bytesOf(response: UpstreamResponse): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of response.body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The engine's steps for one vendor, as a test drives them. */
export function vendorSteps(provider: Provider, channel: RuntimeChannel, model: string) {
  const video = provider.functions.video as VideoFunction;
  return {
    video,
    async submit(request: VideoRequest) {
      const answer = await callVendor(provider, channel, video.submit(channel, request, model));
      return { answer, submitted: answer.status < 300 ? video.readSubmit(answer.json) : null };
    },
    async submitted(request: VideoRequest): Promise<string> {
      const { answer, submitted } = await this.submit(request);
      if (!submitted || !('upstreamId' in submitted))
        throw new Error(`submit refused: ${answer.status} ${answer.text}`);
      return submitted.upstreamId;
    },
    poll: (upstreamId: string) => callVendor(provider, channel, video.poll(channel, upstreamId, model)),
    async progress(upstreamId: string): Promise<VideoProgress> {
      const answer = await this.poll(upstreamId);
      if (answer.status !== 200) throw new Error(`poll answered ${answer.status}: ${answer.text}`);
      return video.readPoll(answer.json, upstreamId);
    },
  };
}
