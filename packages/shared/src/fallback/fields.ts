import { z } from 'zod';

/**
 * Most fallback models a token or a group may name. Each one gets its own `RetryTimes` tries, so a long chain
 * multiplies how long a failing request keeps its caller waiting.
 */
export const FALLBACK_MODELS_MAX = 5;
const MODEL_NAME_MAX = 128;

/** A comma list of model names as entries: trimmed, blanks and repeats dropped, order kept (it is the try order). */
export function splitModelList(text: string | null | undefined): string[] {
  return [
    ...new Set(
      (text ?? '')
        .split(',')
        .map((model) => model.trim())
        .filter(Boolean),
    ),
  ];
}

function isModelList(models: readonly unknown[]): boolean {
  return (
    models.length <= FALLBACK_MODELS_MAX &&
    new Set(models).size === models.length &&
    models.every(
      (model) => typeof model === 'string' && model.trim() === model && model !== '' && model.length <= MODEL_NAME_MAX,
    )
  );
}

/**
 * A token's `fallback_models` (comma list). Optional on the wire: a body without it (a family script) keeps the
 * stored value. Stored normalised (`a,b`), so the list shows what the relay will try.
 */
export const fallbackFieldsSchema = z.object({
  fallback_models: z
    .string('token_fallback_models_invalid')
    .max(10_000, 'token_fallback_models_invalid')
    .transform(splitModelList)
    .refine(isModelList, 'token_fallback_models_invalid')
    .transform((models) => models.join(','))
    .optional(),
});

/** `GroupFallbackModels`: group → the models tried, in order, when a request's model fails in that group. */
export type GroupFallbackModels = Record<string, string[]>;

/** The option's value as a map, or null when it is not one (an empty group name, a list that is not one). */
export function parseGroupFallbackModels(value: unknown): GroupFallbackModels | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  for (const [group, models] of Object.entries(value)) {
    if (group.trim() === '' || !Array.isArray(models) || !isModelList(models)) return null;
  }
  return value as GroupFallbackModels;
}

/** Inclusive status ranges. */
export type StatusRanges = ReadonlyArray<readonly [number, number]>;

/**
 * `FallbackStatusCodes`: a comma list of statuses and ranges (`429,500-599`) between 401 and 599; '' = the default.
 * 400 cannot be named: a request the upstream calls malformed would be just as malformed for another model.
 * Returns null when the text is not such a list.
 */
export function parseStatusRanges(text: string): StatusRanges | null {
  if (text.trim() === '') return [];
  const ranges: Array<[number, number]> = [];
  for (const entry of text.split(',').map((part) => part.trim())) {
    const match = /^(\d{3})(?:\s*-\s*(\d{3}))?$/.exec(entry);
    if (!match) return null;
    const low = Number(match[1]);
    const high = Number(match[2] ?? match[1]);
    if (low < 401 || high > 599 || low > high) return null;
    ranges.push([low, high]);
  }
  return ranges;
}

/** When `FallbackStatusCodes` is empty: the upstream side failed (timeout, rate limit, server error, no channel). */
export const DEFAULT_FALLBACK_STATUSES: StatusRanges = [
  [408, 408],
  [429, 429],
  [500, 599],
];

/** Whether a failure with this status (what the caller would get) moves on to the next fallback model. */
export function fallsBackOn(status: number, ranges: StatusRanges): boolean {
  if (status === 400) return false;
  const chosen = ranges.length > 0 ? ranges : DEFAULT_FALLBACK_STATUSES;
  return chosen.some(([low, high]) => status >= low && status <= high);
}
