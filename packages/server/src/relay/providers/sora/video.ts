import { randomBytes } from 'node:crypto';
import { serializeMultipart } from '../../multipart.js';
import type { VideoFunction } from '../../provider.js';
import type { RuntimeChannel, UpstreamCall } from '../../types.js';
import type { VideoProgress, VideoRequest, VideoStatus } from '../../video-types.js';

/**
 * OpenAI's Videos API (Sora) as a video vendor: on OpenAI and Sora channels at `{base}/v1/videos`, on Azure OpenAI
 * at `{resource}/openai/v1/videos?api-version=preview` with its `api-key` header. The same request, answer and
 * states everywhere; only where the call goes and how it is signed differ (`SoraEndpoint`).
 */
export interface SoraEndpoint {
  url(channel: RuntimeChannel, path: string): string;
  auth(channel: RuntimeChannel): Record<string, string>;
}

/** OpenAI's durations (seconds as a string on the wire). */
const SECONDS = [4, 8, 12];
const DEFAULT_SECONDS = 4;
const SIZES = ['720x1280', '1280x720'];
/** The pro model also renders the tall and wide 1024-pixel sizes, at 5/3 the price (the family's size ratio). */
const PRO_SIZES = [...SIZES, '1024x1792', '1792x1024'];
const LARGE_SIZE_RATIO = 1.666667;

const isPro = (model: string) => model.includes('pro');

/** The size to ask for: the client's, else one from its aspect ratio, else OpenAI's default (portrait 720p). */
function sizeOf(request: VideoRequest): string | null {
  if (request.size) return request.size;
  if (request.aspectRatio === '16:9') return '1280x720';
  if (request.aspectRatio === '9:16') return '720x1280';
  return null;
}

function unsupported(request: VideoRequest, model: string): string | null {
  if (request.seconds !== null && !SECONDS.includes(request.seconds)) return 'seconds (4, 8 or 12)';
  if (request.aspectRatio && request.aspectRatio !== '16:9' && request.aspectRatio !== '9:16' && !request.size) {
    return 'aspect_ratio (16:9 or 9:16)';
  }
  const size = sizeOf(request);
  if (size && !(isPro(model) ? PRO_SIZES : SIZES).includes(size)) {
    return `size (${(isPro(model) ? PRO_SIZES : SIZES).join(', ')})`;
  }
  if (request.resolution && request.resolution.toLowerCase() !== '720p' && !request.size) return 'resolution (720p)';
  if (request.images.some((image) => image.role !== 'first_frame')) return 'last_frame';
  if (request.images.length > 1) return 'input_reference (one image)';
  if (request.negativePrompt) return 'negative_prompt';
  return null;
}

function ratios(request: VideoRequest): Record<string, number> {
  const size = sizeOf(request);
  return {
    seconds: request.seconds ?? DEFAULT_SECONDS,
    size: size === '1024x1792' || size === '1792x1024' ? LARGE_SIZE_RATIO : 1,
  };
}

/**
 * The create call: multipart when an image was uploaded (the API's file form of `input_reference`), else JSON with
 * a URL reference; either way `seconds` goes as the string the API expects.
 */
function submit(endpoint: SoraEndpoint, channel: RuntimeChannel, request: VideoRequest, model: string): UpstreamCall {
  const size = sizeOf(request);
  const fields: Record<string, string> = { model, prompt: request.prompt };
  if (request.seconds !== null) fields.seconds = String(request.seconds);
  if (size) fields.size = size;
  const image = request.images[0];
  const url = endpoint.url(channel, '/videos');
  const headers = { accept: 'application/json', ...endpoint.auth(channel) };
  if (image?.bytes) {
    const boundary = `----gateway${randomBytes(12).toString('hex')}`;
    const parts = Object.entries(fields).map(([name, value]) => ({ name, data: Buffer.from(value) }));
    const extension = (image.mimeType ?? 'image/png').split('/')[1] ?? 'png';
    parts.push({
      name: 'input_reference',
      filename: `reference.${extension}`,
      contentType: image.mimeType ?? 'image/png',
      data: image.bytes,
    } as (typeof parts)[number]);
    return {
      method: 'POST',
      url,
      headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: serializeMultipart(parts, boundary),
    };
  }
  const body = { ...fields, ...(image?.url ? { input_reference: { image_url: image.url } } : {}) };
  return {
    method: 'POST',
    url,
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
}

const STATUSES: Record<string, VideoStatus> = {
  queued: 'queued',
  in_progress: 'in_progress',
  completed: 'completed',
  failed: 'failed',
};

interface SoraVideo {
  id?: unknown;
  status?: unknown;
  progress?: unknown;
  seconds?: unknown;
  error?: { message?: unknown } | null;
}

function readVideo(json: unknown, upstreamId: string): VideoProgress {
  const video = json as SoraVideo | null;
  const status = typeof video?.status === 'string' ? STATUSES[video.status] : undefined;
  if (!video || typeof video !== 'object' || !status) throw new Error('not a video object');
  const made = Number(video.seconds);
  return {
    upstreamId: typeof video.id === 'string' ? video.id : upstreamId,
    status,
    progress: status === 'completed' ? 100 : typeof video.progress === 'number' ? video.progress : 0,
    ...(status === 'failed'
      ? { reason: typeof video.error?.message === 'string' ? video.error.message : 'failed' }
      : {}),
    ...(status === 'completed' && Number.isFinite(made) && made > 0 ? { seconds: made } : {}),
  };
}

/** The Videos API on an endpoint: the file is served by the API itself, behind the same key. */
export function soraVideo(endpoint: SoraEndpoint): VideoFunction {
  const get = (channel: RuntimeChannel, path: string, method: 'GET' | 'DELETE' = 'GET'): UpstreamCall => ({
    method,
    url: endpoint.url(channel, path),
    headers: { accept: 'application/json', ...endpoint.auth(channel) },
  });
  return {
    unsupported,
    ratios,
    submit: (channel, request, model) => submit(endpoint, channel, request, model),
    readSubmit(json) {
      const video = json as { id?: unknown; error?: { message?: unknown } } | null;
      if (video && typeof video.id === 'string' && video.id) return { upstreamId: video.id };
      const message = typeof video?.error?.message === 'string' ? video.error.message : 'no video id in the answer';
      return { refused: message };
    },
    poll: (channel, upstreamId) => get(channel, `/videos/${encodeURIComponent(upstreamId)}`),
    readPoll: readVideo,
    content: (channel, upstreamId, _url, open, range) =>
      open({
        ...get(channel, `/videos/${encodeURIComponent(upstreamId)}/content`),
        headers: { accept: 'application/binary', ...endpoint.auth(channel), ...(range ? { range } : {}) },
      }),
    remove: (channel, upstreamId) => get(channel, `/videos/${encodeURIComponent(upstreamId)}`, 'DELETE'),
  };
}

const trimmed = (base: string) => base.replace(/\/+$/, '');

/** OpenAI and Sora channels: `{base}/v1/videos`, Bearer key (a base URL already ending in /v1 is kept). */
export const openAiSoraVideo = soraVideo({
  url: (channel, path) => {
    const base = trimmed(channel.baseUrl);
    return `${base.endsWith('/v1') ? base : `${base}/v1`}${path}`;
  },
  auth: (channel) => ({ authorization: `Bearer ${channel.key}` }),
});

/** Azure OpenAI: the resource's v1 API with `api-version=preview`, signed with `api-key`. */
export const azureSoraVideo = soraVideo({
  url: (channel, path) => `${trimmed(channel.baseUrl)}/openai/v1${path}?api-version=preview`,
  auth: (channel) => ({ 'api-key': channel.key }),
});
