import { UNSET_MODEL_RATIO } from '@gateway/shared';
import type { OptionsStore } from '../cache/options-store.js';
import { matchingModelName } from './model-suffix.js';

export type ModelPricing =
  | { kind: 'tokens'; modelRatio: number; completionRatio: number; cacheRatio: number; cacheCreationRatio: number }
  | { kind: 'call'; price: number };

// Claude-style cache writes cost 1.25× the prompt rate unless the admin says otherwise (family default).
const DEFAULT_CACHE_CREATION_RATIO = 1.25;

/**
 * How a model is billed: a fixed per-call price (ModelPrice, which wins) or token ratios. Unpriced models are
 * refused unless self-use mode or the user's own setting accepts them at the family's default ratio.
 */
export function modelPricing(options: OptionsStore, name: string, acceptUnset: boolean): ModelPricing | null {
  const prices = options.json<Record<string, number>>('ModelPrice') ?? {};
  const ratios = options.json<Record<string, number>>('ModelRatio') ?? {};
  // A name without a price of its own is priced as the family's wildcard for it (a Gemini thinking budget).
  const model = Object.hasOwn(prices, name) || Object.hasOwn(ratios, name) ? name : matchingModelName(name);
  if (Object.hasOwn(prices, model)) return { kind: 'call', price: prices[model]! };
  let modelRatio = Object.hasOwn(ratios, model) ? ratios[model]! : undefined;
  if (modelRatio === undefined) {
    if (!acceptUnset && !options.bool('SelfUseModeEnabled')) return null;
    modelRatio = UNSET_MODEL_RATIO;
  }
  const completion = options.json<Record<string, number>>('CompletionRatio') ?? {};
  const cache = options.json<Record<string, number>>('CacheRatio') ?? {};
  return {
    kind: 'tokens',
    modelRatio,
    completionRatio: completion[model] ?? 1,
    cacheRatio: cache[model] ?? 1,
    cacheCreationRatio: DEFAULT_CACHE_CREATION_RATIO,
  };
}

export function groupRatio(options: OptionsStore, group: string): number {
  const ratios = options.json<Record<string, number>>('GroupRatio') ?? {};
  return ratios[group] ?? 1;
}

export function isPriced(options: OptionsStore, model: string): boolean {
  const prices = options.json<Record<string, number>>('ModelPrice') ?? {};
  const ratios = options.json<Record<string, number>>('ModelRatio') ?? {};
  return Object.hasOwn(prices, model) || Object.hasOwn(ratios, model);
}

/** A map's ratio for the model: its own key, else the longest key its name starts with (the family's realtime keys). */
function ratioByPrefix(map: Record<string, number>, model: string): number | undefined {
  if (Object.hasOwn(map, model)) return map[model];
  let best: string | undefined;
  for (const key of Object.keys(map)) {
    if (model.startsWith(key) && (best === undefined || key.length > best.length)) best = key;
  }
  return best === undefined ? undefined : map[best];
}

/** How audio tokens of the model are priced: AudioRatio × a text prompt token, output × AudioCompletionRatio more. */
export function audioRatios(
  options: OptionsStore,
  model: string,
): { audioRatio: number; audioCompletionRatio: number } {
  return {
    audioRatio: ratioByPrefix(options.json<Record<string, number>>('AudioRatio') ?? {}, model) ?? 1,
    audioCompletionRatio: ratioByPrefix(options.json<Record<string, number>>('AudioCompletionRatio') ?? {}, model) ?? 1,
  };
}
