import type { VideoImage, VideoRequest } from '../../video-types.js';
import { requestedAspect, unofferedAspect } from '../video-shape.js';

/** The lengths Kling makes, in seconds (its `duration` is the string "5" or "10"). */
export const KLING_SECONDS = [5, 10] as const;
export const KLING_DEFAULT_SECONDS = 5;
const KLING_ASPECT_RATIOS = ['16:9', '9:16', '1:1'];

/** Kling's two submit endpoints; a task is polled under the one that made it. */
export type KlingAction = 'text2video' | 'image2video';

const frame = (request: VideoRequest, role: VideoImage['role']) => request.images.find((image) => image.role === role);

/**
 * What Kling cannot do of the request: a length other than 5 or 10 s, a shape other than 16:9, 9:16 and 1:1, a
 * pixel resolution (Kling's quality lever is `mode`, std or pro, in metadata), a seed (Kling has none), reference
 * images (the video endpoints take a first and a last frame only).
 */
export function klingUnsupported(request: VideoRequest): string | null {
  if (request.seconds !== null && !(KLING_SECONDS as readonly number[]).includes(request.seconds)) return 'seconds';
  const shape = unofferedAspect(request, KLING_ASPECT_RATIOS);
  if (shape) return shape;
  if (request.resolution !== null) return 'resolution';
  if (request.seed !== null) return 'seed';
  if (request.images.some((image) => image.role === 'reference')) return 'image';
  if (request.images.filter((image) => image.role === 'first_frame').length > 1) return 'image';
  if (request.images.filter((image) => image.role === 'last_frame').length > 1) return 'last_frame';
  return null;
}

/** An image as Kling takes it: a URL as it is, bytes or a `data:` URI as bare base64 (Kling refuses the prefix). */
export function klingImage(image: VideoImage): string {
  if (image.bytes) return image.bytes.toString('base64');
  const url = image.url ?? '';
  const dataUri = /^data:[^,]*?;base64,(.*)$/s.exec(url);
  return dataUri ? (dataUri[1] ?? '') : url;
}

/** The endpoint a request goes to: image2video as soon as it carries a first or a last frame. */
export const klingAction = (request: VideoRequest): KlingAction =>
  frame(request, 'first_frame') || frame(request, 'last_frame') ? 'image2video' : 'text2video';

/**
 * VideoRequest → Kling's submit body. The family's defaults (std mode, cfg_scale 0.5, 5 s) are applied first and
 * `metadata` last, so a client can set any Kling field (mode, cfg_scale, camera_control, sound…) as the family lets it.
 */
export function toKlingBody(request: VideoRequest, upstreamModel: string): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model_name: upstreamModel || 'kling-v1',
    prompt: request.prompt,
    mode: 'std',
    duration: String(request.seconds ?? KLING_DEFAULT_SECONDS),
    cfg_scale: 0.5,
  };
  const aspect = requestedAspect(request);
  if (aspect) body.aspect_ratio = aspect;
  if (request.negativePrompt) body.negative_prompt = request.negativePrompt;
  const first = frame(request, 'first_frame');
  const last = frame(request, 'last_frame');
  if (first) body.image = klingImage(first);
  if (last) body.image_tail = klingImage(last);
  return { ...body, ...request.metadata };
}
