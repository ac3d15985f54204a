import type { OptionReader } from '../../provider.js';

/** What the `gemini.*` options ask of a call to a Gemini-wire upstream for one model. */
export interface GeminiUpstreamSettings {
  /** The API version in the URL (`v1beta`, `v1`…). */
  version: string;
  /** A threshold for every harm category (`gemini.safety_settings`), sent with converted chat requests. */
  safetySettings: ReadonlyArray<{ category: string; threshold: string }>;
}

/** The harm categories the family sets a threshold for, in its order. */
export const HARM_CATEGORIES = [
  'HARM_CATEGORY_HARASSMENT',
  'HARM_CATEGORY_HATE_SPEECH',
  'HARM_CATEGORY_SEXUALLY_EXPLICIT',
  'HARM_CATEGORY_DANGEROUS_CONTENT',
  'HARM_CATEGORY_CIVIC_INTEGRITY',
] as const;

const VERSION = /^v\d+(beta|alpha)?\d*$/;
const DEFAULT_VERSION = 'v1beta';
/** The family's threshold when `gemini.safety_settings` names neither the category nor a `default`. */
const DEFAULT_THRESHOLD = 'OFF';

const safetyCache = new WeakMap<object, GeminiUpstreamSettings['safetySettings']>();
const ALL_OFF = Object.freeze(
  HARM_CATEGORIES.map((category) => Object.freeze({ category, threshold: DEFAULT_THRESHOLD })),
);

/**
 * The API version for a model: the channel's `other` when it names one (an operator's choice for that channel),
 * else `gemini.version_settings` for the model, else its `default`, else v1beta. The family reads only the
 * option; a channel's own setting is more specific, so it wins here.
 */
export function geminiApiVersion(options: OptionReader | undefined, model: string, channelOther: string): string {
  if (VERSION.test(channelOther)) return channelOther;
  const table = options?.json<Record<string, unknown>>('gemini.version_settings');
  if (!table) return DEFAULT_VERSION;
  const value = Object.hasOwn(table, model) ? table[model] : table.default;
  return typeof value === 'string' && VERSION.test(value) ? value : DEFAULT_VERSION;
}

/** `gemini.safety_settings` (category → threshold, `default` for the rest) as generateContent's safetySettings. */
export function geminiSafetySettings(options: OptionReader | undefined): GeminiUpstreamSettings['safetySettings'] {
  const table = options?.json<Record<string, unknown>>('gemini.safety_settings');
  if (!table || typeof table !== 'object') return ALL_OFF;
  // Parsed option values are cached by the store until they change, so the list is built once per value.
  let settings = safetyCache.get(table);
  if (!settings) {
    const fallback = typeof table.default === 'string' && table.default ? table.default : DEFAULT_THRESHOLD;
    settings = Object.freeze(
      HARM_CATEGORIES.map((category) => {
        const own = table[category];
        return Object.freeze({ category, threshold: typeof own === 'string' && own ? own : fallback });
      }),
    );
    safetyCache.set(table, settings);
  }
  return settings;
}

/**
 * The `gemini.*` option group for a Gemini-wire upstream (Google AI Studio, and Gemini on Vertex): call it with the
 * options the conveyor hands to the provider, the model name the upstream gets and the channel's `other`.
 */
export function geminiUpstreamSettings(
  options: OptionReader | undefined,
  model: string,
  channelOther = '',
): GeminiUpstreamSettings {
  return { version: geminiApiVersion(options, model, channelOther), safetySettings: geminiSafetySettings(options) };
}
