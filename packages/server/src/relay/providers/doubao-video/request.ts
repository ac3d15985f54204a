import type { VideoImage, VideoRequest } from '../../video-types.js';
import { metaInteger, metaText } from '../video-metadata.js';
import { frameShapeOf, normalizeTier } from '../video-shape.js';
import { DEFAULT_SEEDANCE_SECONDS, SEEDANCE_RATIOS, seedanceModel } from './models.js';

const TIERS = ['480p', '720p', '1080p'];

/** Ark's content item: the prompt, an image (with its role), or, passed through `metadata.content`, a video or audio. */
export interface ArkContentItem {
  type: string;
  text?: string;
  image_url?: { url: string };
  role?: string;
  [vendorField: string]: unknown;
}

const ROLE: Record<VideoImage['role'], string> = {
  first_frame: 'first_frame',
  last_frame: 'last_frame',
  reference: 'reference_image',
};

/** Ark takes an image as a URL or a `data:image/<format>;base64,…` URI. */
function imageUrl(image: VideoImage): string {
  if (image.bytes) return `data:${image.mimeType ?? 'image/png'};base64,${image.bytes.toString('base64')}`;
  return image.url ?? '';
}

/**
 * The length, tier, ratio and seed the task is made with, as the body will carry them: `metadata` wins over the
 * common fields (the family overlays metadata on the body), then `size` is read into ratio and tier, then the model's
 * defaults. Billing and the refusals read these, so what is checked is what is sent.
 */
export interface SeedanceSettings {
  seconds: number;
  resolution: string;
  ratio?: string;
  seed?: number;
  /** The size's shape is no ratio Ark offers. */
  badSize: boolean;
}

export function seedanceSettings(request: VideoRequest, upstreamModel: string): SeedanceSettings {
  const model = seedanceModel(upstreamModel);
  const meta = request.metadata;
  const fromSize = request.size ? frameShapeOf(request.size, SEEDANCE_RATIOS, TIERS) : null;
  const resolution =
    metaText(meta.resolution) ?? request.resolution ?? fromSize?.resolution ?? model?.defaultResolution ?? '720p';
  return {
    seconds: metaInteger(meta.duration) ?? request.seconds ?? DEFAULT_SEEDANCE_SECONDS,
    resolution: normalizeTier(resolution),
    ratio: metaText(meta.ratio) ?? request.aspectRatio ?? fromSize?.aspectRatio,
    seed: metaInteger(meta.seed) ?? request.seed ?? undefined,
    badSize: Boolean(request.size) && !fromSize,
  };
}

/** Content items a client passed in `metadata.content` besides text (Seedance 2.0's reference videos and audio). */
export function extraContent(metadata: Record<string, unknown>): ArkContentItem[] {
  const items = Array.isArray(metadata.content) ? metadata.content : [];
  return items.filter(
    (item): item is ArkContentItem =>
      typeof item === 'object' && item !== null && typeof item.type === 'string' && item.type !== 'text',
  );
}

/**
 * The Ark task body. Parameters go as body fields (`duration`, `resolution`, `ratio`, `seed`), as the family sends
 * them, not as `--duration 5` commands appended to the prompt; Ark takes both, and fields are checked strictly.
 * `metadata` goes on top (camera_fixed, watermark, generate_audio, return_last_frame, callback_url, service_tier,
 * frames…), except `model`, which stays the channel's so billing cannot be bypassed, and `content`, whose non-text
 * items are appended to ours.
 */
export function toSeedanceBody(request: VideoRequest, upstreamModel: string): Record<string, unknown> {
  const settings = seedanceSettings(request, upstreamModel);
  const content: ArkContentItem[] = [];
  if (request.prompt) content.push({ type: 'text', text: request.prompt });
  for (const image of request.images) {
    content.push({ type: 'image_url', image_url: { url: imageUrl(image) }, role: ROLE[image.role] });
  }
  content.push(...extraContent(request.metadata));
  const { model: _model, content: _content, ...vendorFields } = request.metadata;
  const body: Record<string, unknown> = {
    model: upstreamModel,
    content,
    duration: settings.seconds,
    resolution: settings.resolution,
  };
  // Without a ratio Ark chooses: the image's own shape for image-to-video, 16:9 for text.
  if (settings.ratio) body.ratio = settings.ratio;
  if (settings.seed !== undefined) body.seed = settings.seed;
  return { ...body, ...vendorFields };
}
