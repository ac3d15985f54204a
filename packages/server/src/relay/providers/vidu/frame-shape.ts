/**
 * OpenAI's `size` (`WIDTHxHEIGHT`) read for vendors that take an aspect ratio and a resolution tier instead (Vidu,
 * Seedance). Sora's sizes are not exact ratios (1792x1024 is 7:4), so the nearest offered ratio within 5 % is taken;
 * the tier is the one nearest the short side (1280x720 → 720p, 1080x1920 → 1080p). A size that matches no offered
 * ratio is one the vendor cannot make.
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

/**
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
