import { z } from 'zod';

/**
 * The family's ratio_config shape (`GET /api/ratio_config`, and the JSON file an admin uploads): per field, model →
 * number. Only the four maps that drive billing here are synced; the option behind each stays the source of truth.
 */
export const PRICE_SYNC_FIELDS = ['model_ratio', 'completion_ratio', 'cache_ratio', 'model_price'] as const;
export type PriceSyncField = (typeof PRICE_SYNC_FIELDS)[number];

/** The option that stores each field. */
export const PRICE_SYNC_OPTION = {
  model_ratio: 'ModelRatio',
  completion_ratio: 'CompletionRatio',
  cache_ratio: 'CacheRatio',
  model_price: 'ModelPrice',
} as const satisfies Record<PriceSyncField, string>;

export type RatioConfig = Partial<Record<PriceSyncField, Record<string, number>>>;

export type PriceChangeKind = 'changed' | 'added' | 'removed';

/** One row of a preview: a model's field, its value here (null: unset) and at the source (null: the source has none). */
export interface PriceChange {
  model: string;
  field: PriceSyncField;
  kind: PriceChangeKind;
  before: number | null;
  after: number | null;
}

export interface PriceSyncPreview {
  /** What was read, for the header of the preview ("OpenRouter", a gateway address, "upload"). */
  source: string;
  /** How many models the source priced. */
  models: number;
  changes: PriceChange[];
}

const MAX_MODEL_NAME = 200;
const priceValue = z.number().finite().min(0);
const modelName = z.string().trim().min(1).max(MAX_MODEL_NAME);

/** A map as it arrives from outside: non-numbers, negatives and odd names are dropped, never an error. */
function cleanMap(value: unknown): Record<string, number> | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const out: Record<string, number> = {};
  for (const [name, raw] of Object.entries(value as Record<string, unknown>)) {
    const number = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
    if (modelName.safeParse(name).success && priceValue.safeParse(number).success) out[name.trim()] = number as number;
  }
  return out;
}

/** Reads a ratio_config object; null when it names none of the synced fields (so it is not one). */
export function parseRatioConfig(value: unknown): RatioConfig | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  const config: RatioConfig = {};
  let known = false;
  for (const field of PRICE_SYNC_FIELDS) {
    if (!(field in record)) continue;
    known = true;
    const map = cleanMap(record[field]);
    if (map) config[field] = map;
  }
  return known ? config : null;
}

const EPSILON = 1e-9;
const same = (a: number, b: number) => Math.abs(a - b) < EPSILON;

/**
 * Every difference between this site's maps and the source's, per model and field: a value the source has and we
 * do not is added, a different one changed, and one we have that the source (which priced the model) lacks is
 * removed. Models the source does not mention at all are left alone: a source that lists only some models must not
 * propose deleting the rest. Sorted by model, then field, so the preview reads in a stable order.
 */
export function diffRatioConfigs(local: RatioConfig, source: RatioConfig): PriceChange[] {
  const sourceModels = new Set(PRICE_SYNC_FIELDS.flatMap((field) => Object.keys(source[field] ?? {})));
  const changes: PriceChange[] = [];
  for (const model of [...sourceModels].sort()) {
    for (const field of PRICE_SYNC_FIELDS) {
      const before = local[field]?.[model] ?? null;
      const after = source[field]?.[model] ?? null;
      if (before === null && after === null) continue;
      if (before !== null && after !== null && same(before, after)) continue;
      const kind: PriceChangeKind = before === null ? 'added' : after === null ? 'removed' : 'changed';
      changes.push({ model, field, kind, before, after });
    }
  }
  return changes;
}

/** Writes the selected changes into copies of the local maps; only the fields touched come back. */
export function applyPriceChanges(
  local: RatioConfig,
  selected: readonly Pick<PriceChange, 'model' | 'field' | 'after'>[],
): RatioConfig {
  const next: RatioConfig = {};
  for (const change of selected) {
    const map = next[change.field] ?? { ...(local[change.field] ?? {}) };
    next[change.field] = map;
    if (change.after === null) delete map[change.model];
    else map[change.model] = change.after;
  }
  return next;
}

export const priceSyncSourceSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('openrouter') }),
  z.object({ type: z.literal('gateway'), base_url: z.string().trim().min(1, 'ratio_sync_url_required').max(2048) }),
  z.object({ type: z.literal('upload'), data: z.unknown() }),
]);
export type PriceSyncSource = z.infer<typeof priceSyncSourceSchema>;

export const priceSyncPreviewSchema = z.object({ source: priceSyncSourceSchema });

const MAX_APPLY = 20_000;
export const priceSyncApplySchema = z.object({
  source: z.string().max(2048).default(''),
  changes: z
    .array(
      z.object({
        model: modelName,
        field: z.enum(PRICE_SYNC_FIELDS),
        after: priceValue.nullable(),
      }),
    )
    .min(1, 'ratio_sync_nothing_selected')
    .max(MAX_APPLY),
});
export type PriceSyncApply = z.infer<typeof priceSyncApplySchema>;
