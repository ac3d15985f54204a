/**
 * What each Vidu model can make, from Vidu's API reference (platform.vidu.cn/docs): the lengths, the resolution tiers,
 * the aspect ratios a text or reference video may take, and which of the four routes it serves. A model not listed
 * (a new one the operator added before this table knew it) is sent as asked and bounded by Vidu alone.
 */
export type ViduRoute = 'text2video' | 'img2video' | 'start-end2video' | 'reference2video';

export interface ViduModel {
  seconds: readonly number[];
  /** Vidu's own default length, sent when the client gives none (so the task's length is known at submit). */
  defaultSeconds: number;
  resolutions: readonly string[];
  /** Tiers that hold only for shorter videos (vidu1.5 and vidu2.0 make 8 s at 720p at most). */
  resolutionsAt?: Readonly<Record<number, readonly string[]>>;
  aspectRatios: readonly string[];
  routes: readonly ViduRoute[];
  /** How many reference images reference2video takes. */
  maxReferences: number;
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const ALL_ROUTES: readonly ViduRoute[] = ['text2video', 'img2video', 'start-end2video', 'reference2video'];
const BASIC_RATIOS = ['16:9', '9:16', '1:1'];
const Q_RATIOS = ['16:9', '9:16', '1:1', '4:3', '3:4'];

const Q1: ViduModel = {
  seconds: [5],
  defaultSeconds: 5,
  resolutions: ['1080p'],
  aspectRatios: BASIC_RATIOS,
  routes: ALL_ROUTES,
  maxReferences: 7,
};

const GEN2: ViduModel = {
  seconds: [4, 8],
  defaultSeconds: 4,
  resolutions: ['360p', '720p', '1080p'],
  resolutionsAt: { 8: ['360p', '720p'] },
  aspectRatios: BASIC_RATIOS,
  routes: ALL_ROUTES,
  maxReferences: 3,
};

const Q2: ViduModel = {
  seconds: range(1, 10),
  defaultSeconds: 5,
  resolutions: ['540p', '720p', '1080p'],
  aspectRatios: Q_RATIOS,
  routes: ALL_ROUTES,
  maxReferences: 7,
};

const Q3: ViduModel = {
  seconds: range(1, 16),
  defaultSeconds: 5,
  resolutions: ['540p', '720p', '1080p'],
  aspectRatios: Q_RATIOS,
  routes: ['text2video', 'img2video', 'start-end2video'],
  maxReferences: 0,
};

// Longest prefix first: `viduq2-pro` is a q2 model, `vidu2.0` is not `vidu2`.
const MODELS: Array<[prefix: string, model: ViduModel]> = [
  ['viduq3', Q3],
  ['viduq2', Q2],
  ['viduq1', Q1],
  // vidu2.0 animates images only; it has no text-to-video.
  ['vidu2.0', { ...GEN2, routes: ['img2video', 'start-end2video', 'reference2video'] }],
  ['vidu1.5', GEN2],
];

export function viduModel(upstreamModel: string): ViduModel | undefined {
  const name = upstreamModel.toLowerCase();
  return MODELS.find(([prefix]) => name.startsWith(prefix))?.[1];
}

/** The length sent when the client names none: the model's default, or Vidu's usual 5 s for an unknown model. */
export function defaultViduSeconds(upstreamModel: string): number {
  return viduModel(upstreamModel)?.defaultSeconds ?? 5;
}
