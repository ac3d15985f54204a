import type { VideoRequest } from '../video-types.js';

/**
 * OpenAI's `size` (`WIDTHxHEIGHT`) read for video vendors that take a shape instead of pixels: its sides (Veo), its
 * exact ratio (Kling, Jimeng), or the nearest offered ratio and resolution tier (Vidu, Seedance). Each vendor keeps
 * the ratios and tiers it offers in its own folder; the reading is one, so a size means the same to all of them.
 */
export interface FrameShape {
  aspectRatio: string;
  resolution: string;
}

const RATIO_TOLERANCE = 0.05;

/** `16:9` → 16/9; null when the text is not `W:H`. */
function ratioValue(ratio: string): number | null {
  const match = /^(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/.exec(ratio.trim());
  if (!match) return null;
  const value = Number(match[1]) / Number(match[2]);
  return Number.isFinite(value) && value > 0 ? value : null;
}

/** The `WIDTHxHEIGHT` of a size, or null when it is not one. */
export function parseSize(size: string): { width: number; height: number } | null {
  const match = /^\s*(\d+)\s*[xX*×]\s*(\d+)\s*$/.exec(size);
  if (!match) return null;
  const width = Number(match[1]);
  const height = Number(match[2]);
  return width > 0 && height > 0 ? { width, height } : null;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** `1280x720` → `16:9`, the size's exact ratio in lowest terms; null when the size is not `WIDTHxHEIGHT`. */
export function aspectOfSize(size: string): string | null {
  const parsed = parseSize(size);
  if (!parsed) return null;
  const divisor = gcd(parsed.width, parsed.height);
  return `${parsed.width / divisor}:${parsed.height / divisor}`;
}

/** The shape a request asks for: its aspect ratio, else its size's exact ratio; null when it names neither. */
export const requestedAspect = (request: VideoRequest): string | null =>
  request.aspectRatio ?? (request.size ? aspectOfSize(request.size) : null);

/** The field asking for a ratio outside `ratios` (`aspect_ratio`, else `size` by its exact ratio), or null. */
export function unofferedAspect(request: VideoRequest, ratios: readonly string[]): 'aspect_ratio' | 'size' | null {
  if (request.aspectRatio !== null && !ratios.includes(request.aspectRatio)) return 'aspect_ratio';
  if (request.size !== null) {
    const aspect = aspectOfSize(request.size);
    if (!aspect || !ratios.includes(aspect)) return 'size';
  }
  return null;
}

/**
 * Sora's sizes are not exact ratios (1792x1024 is 7:4), so the nearest offered ratio within 5 % is taken; the tier is
 * the one nearest the short side (1280x720 → 720p, 1080x1920 → 1080p). A size that matches no offered ratio is one
 * the vendor cannot make.
 *
 * The offered ratio and tier a size stands for, or null when the size is unreadable or its shape is not offered.
 * `tiers` are labels like `720p`, read by their number.
 */
export function frameShapeOf(size: string, ratios: readonly string[], tiers: readonly string[]): FrameShape | null {
  const parsed = parseSize(size);
  if (!parsed || tiers.length === 0) return null;
  const wanted = parsed.width / parsed.height;
  let aspectRatio: string | null = null;
  let best = Number.POSITIVE_INFINITY;
  for (const ratio of ratios) {
    const value = ratioValue(ratio);
    if (value === null) continue;
    const distance = Math.abs(value - wanted) / value;
    if (distance <= RATIO_TOLERANCE && distance < best) {
      best = distance;
      aspectRatio = ratio;
    }
  }
  if (!aspectRatio) return null;
  const shortSide = Math.min(parsed.width, parsed.height);
  const resolution = tiers.reduce((nearest, tier) =>
    Math.abs(Number.parseInt(tier, 10) - shortSide) < Math.abs(Number.parseInt(nearest, 10) - shortSide)
      ? tier
      : nearest,
  );
  return { aspectRatio, resolution };
}

/** `1080P` → `1080p`: vendors name tiers in lower case. */
export function normalizeTier(resolution: string): string {
  return resolution.trim().toLowerCase();
}
