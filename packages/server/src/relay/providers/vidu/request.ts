import type { VideoImage, VideoRequest } from '../../video-types.js';
import { metaInteger, metaText } from '../video-metadata.js';
import { frameShapeOf, normalizeTier } from '../video-shape.js';
import { defaultViduSeconds, type ViduRoute, viduModel } from './models.js';

/** The aspect ratios and tiers any Vidu model offers: what a `size` is read against when the model is unknown. */
export const ANY_RATIOS = ['16:9', '9:16', '1:1', '4:3', '3:4'];
export const ANY_TIERS = ['360p', '540p', '720p', '1080p'];

/** Which of Vidu's four routes a request goes to, or the parameter that makes it fit none. */
export function viduRouteOf(images: readonly VideoImage[]): { route: ViduRoute } | { unsupported: string } {
  const first = images.filter((image) => image.role === 'first_frame');
  const last = images.filter((image) => image.role === 'last_frame');
  const references = images.filter((image) => image.role === 'reference');
  if (references.length > 0) {
    // reference2video takes only reference images; a start frame beside them has no route.
    return first.length + last.length > 0 ? { unsupported: 'image' } : { route: 'reference2video' };
  }
  if (first.length > 1 || last.length > 1) return { unsupported: 'image' };
  if (last.length === 1) return first.length === 1 ? { route: 'start-end2video' } : { unsupported: 'last_frame' };
  return first.length === 1 ? { route: 'img2video' } : { route: 'text2video' };
}

/** Vidu takes an image as a URL or as a `data:` URI with its base64 (its `images` field accepts both). */
export function viduImage(image: VideoImage): string {
  if (image.bytes) return `data:${image.mimeType ?? 'image/png'};base64,${image.bytes.toString('base64')}`;
  return image.url ?? '';
}

/** The start frame first: start-end2video reads `images[0]` as the first frame and `images[1]` as the last. */
function orderedImages(images: readonly VideoImage[]): VideoImage[] {
  const rank = { first_frame: 0, last_frame: 1, reference: 2 } as const;
  return [...images].sort((a, b) => rank[a.role] - rank[b.role]);
}

/**
 * The length, tier and aspect ratio the task is made with, as the body will carry them: `metadata` wins over the
 * common fields (the family overlays metadata on the body), then `size` is read into ratio and tier, then the model's
 * default length. The refusals read these, so what is checked is what is sent.
 */
export interface ViduSettings {
  seconds: number;
  resolution?: string;
  aspectRatio?: string;
  /** The tier came from `size` (so a tier the model lacks is the size's fault). */
  tierFromSize: boolean;
}

export function viduSettings(request: VideoRequest, upstreamModel: string): ViduSettings {
  const model = viduModel(upstreamModel);
  const meta = request.metadata;
  // The tier is read against every tier Vidu has, not snapped to the model's: 1280x720 on a 1080p-only model is a
  // size it cannot make, not a reason to make something else.
  const fromSize = request.size ? frameShapeOf(request.size, model?.aspectRatios ?? ANY_RATIOS, ANY_TIERS) : null;
  const resolution = metaText(meta.resolution) ?? request.resolution ?? fromSize?.resolution;
  return {
    seconds: metaInteger(meta.duration) ?? request.seconds ?? defaultViduSeconds(upstreamModel),
    resolution: resolution ? normalizeTier(resolution) : undefined,
    aspectRatio: metaText(meta.aspect_ratio) ?? request.aspectRatio ?? fromSize?.aspectRatio,
    tierFromSize: !metaText(meta.resolution) && !request.resolution && Boolean(fromSize),
  };
}

export interface ViduSubmit {
  route: ViduRoute;
  body: Record<string, unknown>;
}

/**
 * The Vidu submit for a request that `unsupported` accepted. The length is always sent (the model's default when the
 * client named none) so the task's length is known; the resolution only when asked, so each model keeps its own
 * default tier. `metadata` goes on top as the family passes it (Vidu-only fields: movement_amplitude, bgm, style,
 * payload, callback_url, watermark…), except `model`, which stays the channel's so billing cannot be bypassed.
 */
export function toViduSubmit(request: VideoRequest, upstreamModel: string): ViduSubmit {
  const routed = viduRouteOf(request.images);
  const route = 'route' in routed ? routed.route : 'text2video';
  const settings = viduSettings(request, upstreamModel);
  // Reference-to-video serves only the bare `viduq2`: its pro and turbo variants are refused there (the family too).
  const model = route === 'reference2video' && upstreamModel.startsWith('viduq2') ? 'viduq2' : upstreamModel;
  const body: Record<string, unknown> = { model, prompt: request.prompt };
  if (route !== 'text2video') body.images = orderedImages(request.images).map(viduImage);
  body.duration = settings.seconds;
  if (request.seed !== null) body.seed = request.seed;
  if (settings.resolution) body.resolution = settings.resolution;
  // An image route's frame follows its image; only text and reference videos take an aspect ratio.
  if (settings.aspectRatio && (route === 'text2video' || route === 'reference2video')) {
    body.aspect_ratio = settings.aspectRatio;
  }
  const { model: _ignored, ...vendorFields } = request.metadata;
  return { route, body: { ...body, ...vendorFields } };
}
