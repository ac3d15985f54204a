import type { VideoRequest } from '../../video-types.js';
import { SEEDANCE_FPS } from './models.js';
import { extraContent, seedanceSettings } from './request.js';

/**
 * Seedance's price tiers relative to each model's base tier (480p/720p, no input video), from Ark's 2026-01-28 price
 * list as the family records it: only Seedance 2.0 prices 1080p and video inputs differently; the 1.x models are one
 * price. The keys are the family's (`resolution`, `video_input`), so an operator's prices carry over.
 */
const TIER_PRICES: Record<string, { base: number; hd?: number; withVideo: number; hdWithVideo?: number }> = {
  // yuan per million tokens
  'seedance-2-0-fast': { base: 37, withVideo: 22 },
  'seedance-2-0': { base: 46, hd: 51, withVideo: 28, hdWithVideo: 31 },
};

function tierPrices(upstreamModel: string) {
  const name = upstreamModel.toLowerCase();
  const family = Object.keys(TIER_PRICES).find((key) => name.includes(key));
  return family ? TIER_PRICES[family] : undefined;
}

/** Whether the request carries a reference video (Seedance 2.0 takes `video_url` items through `metadata.content`). */
export function hasVideoInput(request: VideoRequest): boolean {
  return extraContent(request.metadata).some((item) => item.type === 'video_url' || item.video_url !== undefined);
}

/**
 * The family's EstimateBilling for Seedance: `resolution` = the 1080p price over the base price, and `video_input` =
 * the price with a video input over the price without, at that tier; empty for a base-tier request or a model without
 * tiers. `null` when the tier is not offered at all (2.0 fast at 1080p).
 */
export function seedanceTierRatios(request: VideoRequest, upstreamModel: string): Record<string, number> | null {
  const prices = tierPrices(upstreamModel);
  if (!prices) return {};
  const hd = seedanceSettings(request, upstreamModel).resolution === '1080p';
  const video = hasVideoInput(request);
  const plain = hd ? prices.hd : prices.base;
  const withVideo = hd ? prices.hdWithVideo : prices.withVideo;
  if (plain === undefined || withVideo === undefined) return null;
  const ratios: Record<string, number> = {};
  if (plain !== prices.base) ratios.resolution = plain / prices.base;
  if (video && withVideo !== plain) ratios.video_input = withVideo / plain;
  return ratios;
}

const FRAME: Record<string, [number, number]> = { '480p': [854, 480], '720p': [1280, 720], '1080p': [1920, 1080] };
/** Ark's longest input video, assumed when a video input's length cannot be known before the task runs. */
const MAX_INPUT_VIDEO_SECONDS = 15;

/**
 * The tokens Ark will count for the task, by its formula (and the family's estimator): (input video seconds + output
 * seconds) × width × height × 24 fps / 1024. For a model priced per token (a ModelRatio) this is what to reserve; the
 * finished task's `usage.total_tokens` (`seedanceUsage`) is what to settle.
 */
export function estimateSeedanceTokens(request: VideoRequest, upstreamModel: string): number {
  const settings = seedanceSettings(request, upstreamModel);
  const [width, height] = FRAME[settings.resolution] ?? (FRAME['720p'] as [number, number]);
  const seconds = settings.seconds + (hasVideoInput(request) ? MAX_INPUT_VIDEO_SECONDS : 0);
  return Math.floor((seconds * width * height * SEEDANCE_FPS) / 1024);
}
