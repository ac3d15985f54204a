import type { VideoImage, VideoRequest } from '../../video-types.js';
import { requestedAspect, unofferedAspect } from '../video-shape.js';

/** Jimeng's lengths: a frame count at 24 fps plus one (121 frames make 5 s, 241 make 10 s). */
const FRAMES_BY_SECONDS: Record<number, number> = { 5: 121, 10: 241 };
const JIMENG_ASPECT_RATIOS = ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9'];

/** The Jimeng 3.0 models are named by the client as `jimeng_v30…`; their req_key depends on the frames given. */
const isV30 = (model: string) => model.includes('jimeng_v30');

const framesOf = (request: VideoRequest) => ({
  first: request.images.filter((image) => image.role === 'first_frame'),
  last: request.images.filter((image) => image.role === 'last_frame'),
});

/**
 * The `req_key` Jimeng runs, as the family maps it: a 3.0 model name becomes its text, first-frame or first-and-last
 * variant (`jimeng_v30_1080p` → `jimeng_t2v_v30_1080p`, `jimeng_i2v_first_v30_1080`, `jimeng_i2v_first_tail_v30_1080`:
 * the image variants drop the `p`), 3.0 pro is one key for all; any other model is its own req_key.
 */
export function jimengReqKey(upstreamModel: string, request: VideoRequest): string {
  if (!isV30(upstreamModel)) return upstreamModel;
  if (upstreamModel === 'jimeng_v30_pro') return 'jimeng_ti2v_v30_pro';
  const { first, last } = framesOf(request);
  if (first.length && last.length) {
    return upstreamModel.replace('jimeng_v30', 'jimeng_i2v_first_tail_v30').replace(/p$/, '');
  }
  if (first.length) return upstreamModel.replace('jimeng_v30', 'jimeng_i2v_first_v30').replace(/p$/, '');
  return upstreamModel.replace('jimeng_v30', 'jimeng_t2v_v30');
}

const isUrl = (image: VideoImage) => !image.bytes && /^https?:\/\//i.test(image.url ?? '');

/**
 * What Jimeng cannot do: a length other than 5 or 10 s, a shape outside its six, a pixel resolution (3.0's 1080p is
 * its own model), a negative prompt (Jimeng's video API has none), reference images, a last frame without a first
 * or on a model without first-and-last-frame generation (only 3.0 has it), URLs mixed with uploaded images (one
 * request carries either `image_urls` or `binary_data_base64`).
 */
export function jimengUnsupported(request: VideoRequest, upstreamModel: string): string | null {
  if (request.seconds !== null && !FRAMES_BY_SECONDS[request.seconds]) return 'seconds';
  const shape = unofferedAspect(request, JIMENG_ASPECT_RATIOS);
  if (shape) return shape;
  if (request.resolution !== null) return 'resolution';
  if (request.negativePrompt !== null) return 'negative_prompt';
  if (request.images.some((image) => image.role === 'reference')) return 'image';
  const { first, last } = framesOf(request);
  if (first.length > 1) return 'image';
  if (last.length > 1 || (last.length && !first.length)) return 'last_frame';
  if (last.length && (!isV30(upstreamModel) || upstreamModel === 'jimeng_v30_pro')) return 'last_frame';
  const frames = [...first, ...last];
  if (frames.some(isUrl) && !frames.every(isUrl)) return 'image';
  return null;
}

/** An uploaded or `data:` image as Jimeng's bare base64. */
function base64Of(image: VideoImage): string {
  if (image.bytes) return image.bytes.toString('base64');
  return /^data:[^,]*?;base64,(.*)$/s.exec(image.url ?? '')?.[1] ?? '';
}

/**
 * VideoRequest → the body of CVSync2AsyncSubmitTask. Frames go first then last, as URLs (`image_urls`) or as base64
 * (`binary_data_base64`); `metadata` is applied last, so a client can set any Jimeng field as the family lets it.
 */
export function toJimengBody(request: VideoRequest, upstreamModel: string): Record<string, unknown> {
  const body: Record<string, unknown> = {
    req_key: jimengReqKey(upstreamModel, request),
    prompt: request.prompt,
    seed: request.seed ?? -1,
    frames: FRAMES_BY_SECONDS[request.seconds ?? 5] ?? FRAMES_BY_SECONDS[5],
  };
  const aspect = requestedAspect(request);
  if (aspect) body.aspect_ratio = aspect;
  const { first, last } = framesOf(request);
  const frames = [...first, ...last];
  if (frames.length && frames.every(isUrl)) body.image_urls = frames.map((image) => image.url);
  else if (frames.length) body.binary_data_base64 = frames.map(base64Of);
  return { ...body, ...request.metadata };
}
