/**
 * What each Seedance model on Volcengine Ark can make (Ark's video-generation reference, and the family's
 * seedance_estimator for the default tiers and longest lengths): lengths, tiers, which images it takes. Model ids
 * carry a date suffix (`doubao-seedance-1-0-pro-250528`), and some operators use them without the `doubao-` prefix,
 * so a model is found by the family name it contains. A model not listed is sent as asked and bounded by Ark alone.
 */
export interface SeedanceModel {
  minSeconds: number;
  maxSeconds: number;
  resolutions: readonly string[];
  /** The tier Ark makes when none is asked (1.0 pro makes 1080p, the others 720p). */
  defaultResolution: string;
  /** Text-to-video only (lite-t2v), or image-to-video only (lite-i2v): what the model refuses. */
  takesText: boolean;
  takesFirstFrame: boolean;
  takesLastFrame: boolean;
  /** How many reference images (`role: reference_image`) it takes; 0 when none. */
  maxReferences: number;
}

export const SEEDANCE_RATIOS = ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9'];
/** `adaptive`: the frame follows the input image (image-to-video), or the model's choice. */
export const ADAPTIVE = 'adaptive';
export const DEFAULT_SEEDANCE_SECONDS = 5;
/** Ark's output frame rate, fixed: tokens are counted per frame. */
export const SEEDANCE_FPS = 24;

const ALL_TIERS = ['480p', '720p', '1080p'];
const V1 = { minSeconds: 2, maxSeconds: 12, resolutions: ALL_TIERS, defaultResolution: '720p' };

// The more specific name first: `seedance-2-0-fast` before `seedance-2-0`, `1-0-pro-fast` before `1-0-pro`.
const MODELS: Array<[family: string, model: SeedanceModel]> = [
  [
    'seedance-2-0-fast',
    {
      minSeconds: 4,
      maxSeconds: 15,
      // 1080p is not offered on 2.0 fast (the family's price table marks it unsupported).
      resolutions: ['480p', '720p'],
      defaultResolution: '720p',
      takesText: true,
      takesFirstFrame: true,
      takesLastFrame: true,
      maxReferences: 9,
    },
  ],
  [
    'seedance-2-0',
    {
      minSeconds: 4,
      maxSeconds: 15,
      resolutions: ALL_TIERS,
      defaultResolution: '720p',
      takesText: true,
      takesFirstFrame: true,
      takesLastFrame: true,
      maxReferences: 9,
    },
  ],
  [
    'seedance-1-5-pro',
    { ...V1, minSeconds: 4, takesText: true, takesFirstFrame: true, takesLastFrame: true, maxReferences: 0 },
  ],
  [
    'seedance-1-0-pro-fast',
    {
      ...V1,
      defaultResolution: '1080p',
      takesText: true,
      takesFirstFrame: true,
      takesLastFrame: false,
      maxReferences: 0,
    },
  ],
  [
    'seedance-1-0-pro',
    {
      ...V1,
      defaultResolution: '1080p',
      takesText: true,
      takesFirstFrame: true,
      takesLastFrame: true,
      maxReferences: 0,
    },
  ],
  [
    'seedance-1-0-lite-t2v',
    { ...V1, takesText: true, takesFirstFrame: false, takesLastFrame: false, maxReferences: 0 },
  ],
  ['seedance-1-0-lite-i2v', { ...V1, takesText: false, takesFirstFrame: true, takesLastFrame: true, maxReferences: 4 }],
];

export function seedanceModel(upstreamModel: string): SeedanceModel | undefined {
  const name = upstreamModel.toLowerCase();
  return MODELS.find(([family]) => name.includes(family))?.[1];
}
