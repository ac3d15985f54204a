import type { VideoFunction } from '../../provider.js';
import type { RuntimeChannel, UpstreamCall } from '../../types.js';
import type { VideoRequest } from '../../video-types.js';
import { frameShapeOf } from '../video-shape.js';
import { viduModel } from './models.js';
import { ANY_RATIOS, ANY_TIERS, toViduSubmit, viduRouteOf, viduSettings } from './request.js';
import { readViduPoll, readViduSubmit } from './response.js';

/** Vidu's key goes as `Authorization: Token <key>` (not Bearer), on submits and polls alike. */
function viduHeaders(channel: RuntimeChannel): Record<string, string> {
  return { 'content-type': 'application/json', accept: 'application/json', authorization: `Token ${channel.key}` };
}

/** The parameter this request asks of Vidu that the model cannot make, or null. */
export function viduUnsupported(request: VideoRequest, upstreamModel: string): string | null {
  const routed = viduRouteOf(request.images);
  if ('unsupported' in routed) return routed.unsupported;
  // Vidu has no negative prompt on any route.
  if (request.negativePrompt) return 'negative_prompt';
  const model = viduModel(upstreamModel);
  // A size whose shape is no offered aspect ratio (or is not WIDTHxHEIGHT at all).
  if (request.size && !frameShapeOf(request.size, model?.aspectRatios ?? ANY_RATIOS, ANY_TIERS)) return 'size';
  if (!model) return null;
  // A route the model does not serve: vidu2.0 needs an image, viduq3 takes no reference images.
  if (!model.routes.includes(routed.route)) return 'image';
  if (routed.route === 'reference2video' && request.images.length > model.maxReferences) return 'image';
  const settings = viduSettings(request, upstreamModel);
  if (!model.seconds.includes(settings.seconds)) return 'seconds';
  if (settings.resolution) {
    const tiers = model.resolutionsAt?.[settings.seconds] ?? model.resolutions;
    if (!tiers.includes(settings.resolution)) return settings.tierFromSize ? 'size' : 'resolution';
  }
  const takesRatio = routed.route === 'text2video' || routed.route === 'reference2video';
  if (takesRatio && settings.aspectRatio && !model.aspectRatios.includes(settings.aspectRatio)) return 'aspect_ratio';
  return null;
}

/**
 * Vidu (type 52): text2video, img2video (one start frame), start-end2video (first and last frame) and reference2video
 * (reference images), chosen from the request's images; polled at `/ent/v2/tasks/{id}/creations`.
 */
export const viduVideo: VideoFunction = {
  unsupported: viduUnsupported,
  // The family bills a Vidu task per call (its EstimateBilling adds no ratio): ModelPrice is the price of one video,
  // whatever its length or tier.
  ratios: () => ({}),
  submit(channel, request, upstreamModel): UpstreamCall {
    const { route, body } = toViduSubmit(request, upstreamModel);
    return {
      method: 'POST',
      url: `${channel.baseUrl}/ent/v2/${route}`,
      headers: viduHeaders(channel),
      body: JSON.stringify(body),
    };
  },
  readSubmit: readViduSubmit,
  poll(channel, upstreamId): UpstreamCall {
    const { 'content-type': _none, ...headers } = viduHeaders(channel);
    return {
      method: 'GET',
      url: `${channel.baseUrl}/ent/v2/tasks/${encodeURIComponent(upstreamId)}/creations`,
      headers,
    };
  },
  readPoll: readViduPoll,
};
