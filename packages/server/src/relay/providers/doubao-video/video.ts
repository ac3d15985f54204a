import type { VideoFunction } from '../../provider.js';
import type { RuntimeChannel, UpstreamCall } from '../../types.js';
import type { VideoRequest } from '../../video-types.js';
import { estimateSeedanceTokens, seedanceTierRatios } from './billing.js';
import { ADAPTIVE, SEEDANCE_RATIOS, seedanceModel } from './models.js';
import { seedanceSettings, toSeedanceBody } from './request.js';
import { readSeedancePoll, readSeedanceSubmit } from './response.js';

const TASKS_PATH = '/api/v3/contents/generations/tasks';

function arkHeaders(channel: RuntimeChannel): Record<string, string> {
  return { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${channel.key}` };
}

const taskUrl = (channel: RuntimeChannel, upstreamId: string) =>
  `${channel.baseUrl}${TASKS_PATH}/${encodeURIComponent(upstreamId)}`;

/** The parameter this request asks of Seedance that the model cannot make, or null. */
export function seedanceUnsupported(request: VideoRequest, upstreamModel: string): string | null {
  // Seedance has no negative prompt.
  if (request.negativePrompt) return 'negative_prompt';
  const settings = seedanceSettings(request, upstreamModel);
  if (settings.badSize) return 'size';
  if (settings.ratio && settings.ratio !== ADAPTIVE && !SEEDANCE_RATIOS.includes(settings.ratio)) return 'aspect_ratio';
  const first = request.images.filter((image) => image.role === 'first_frame').length;
  const last = request.images.filter((image) => image.role === 'last_frame').length;
  const references = request.images.filter((image) => image.role === 'reference').length;
  if (first > 1 || last > 1) return 'image';
  // A last frame closes a first-frame video; reference images are a separate mode, not mixed with frames.
  if (last === 1 && first === 0) return 'last_frame';
  if (references > 0 && first + last > 0) return 'image';
  const model = seedanceModel(upstreamModel);
  if (!model) return null;
  if (request.images.length === 0 && !model.takesText) return 'image';
  if (first > 0 && !model.takesFirstFrame) return 'image';
  if (last > 0 && !model.takesLastFrame) return 'last_frame';
  if (references > model.maxReferences) return 'image';
  if (settings.seconds < model.minSeconds || settings.seconds > model.maxSeconds) return 'seconds';
  if (!model.resolutions.includes(settings.resolution))
    return request.size && !request.resolution ? 'size' : 'resolution';
  if (seedanceTierRatios(request, upstreamModel) === null) return 'resolution';
  return null;
}

/**
 * ByteDance Seedance on Volcengine Ark: one task API for the video-only type 54 (DoubaoVideo) and the chat type 45
 * (VolcEngine), both keyed by an Ark API key sent as a Bearer token. Submit `POST /api/v3/contents/generations/tasks`,
 * poll and delete at `…/tasks/{id}`.
 */
export const seedanceVideo: VideoFunction = {
  unsupported: seedanceUnsupported,
  // As the family: a Seedance task costs ModelPrice, times Seedance 2.0's tier ratios (1080p, video input); a model
  // priced per token (a ModelRatio) is charged Ark's token formula and settled by the tokens Ark reports.
  ratios: (request, upstreamModel) => seedanceTierRatios(request, upstreamModel) ?? {},
  estimateTokens: estimateSeedanceTokens,
  submit(channel, request, upstreamModel): UpstreamCall {
    return {
      method: 'POST',
      url: `${channel.baseUrl}${TASKS_PATH}`,
      headers: arkHeaders(channel),
      body: JSON.stringify(toSeedanceBody(request, upstreamModel)),
    };
  },
  readSubmit: readSeedanceSubmit,
  poll(channel, upstreamId): UpstreamCall {
    return { method: 'GET', url: taskUrl(channel, upstreamId), headers: arkHeaders(channel) };
  },
  readPoll: readSeedancePoll,
  // Ark cancels a queued task and deletes the record of a finished one (a running task cannot be stopped).
  remove(channel, upstreamId): UpstreamCall {
    return { method: 'DELETE', url: taskUrl(channel, upstreamId), headers: arkHeaders(channel) };
  },
};
