import { PRICE_SYNC_FIELDS, type RatioConfig } from '@gateway/shared';

/** One field of one model in the family's `POST /api/ratio_sync/fetch` answer. */
export interface FamilyDifference {
  current: number | null;
  /** Per upstream: its value, or "same" when it agrees with this site. */
  upstreams: Record<string, number | 'same'>;
  confidence: Record<string, boolean>;
}

const EPSILON = 1e-9;

/**
 * The family's difference table over several upstreams: a model's field is listed when an upstream prices it and
 * this site has no value, or has a different one. Upstreams that agree are marked "same"; a field where all agree
 * is left out. A per-token list that says ratio 37.5 with completion 1 is the family's "unset" default, so such
 * a row is flagged as low confidence, as there.
 */
export function familyDifferences(
  local: RatioConfig,
  upstreams: ReadonlyArray<{ name: string; config: RatioConfig }>,
): Record<string, Record<string, FamilyDifference>> {
  const out: Record<string, Record<string, FamilyDifference>> = {};
  for (const { name, config } of upstreams) {
    for (const field of PRICE_SYNC_FIELDS) {
      for (const [model, value] of Object.entries(config[field] ?? {})) {
        const current = local[field]?.[model] ?? null;
        const row = out[model] ?? {};
        out[model] = row;
        const item = row[field] ?? { current, upstreams: {}, confidence: {} };
        row[field] = item;
        const agrees = current !== null && Math.abs(current - value) < EPSILON;
        item.upstreams[name] = agrees ? 'same' : value;
        const unsetDefault = config.model_ratio?.[model] === 37.5 && config.completion_ratio?.[model] === 1;
        item.confidence[name] = !unsetDefault;
      }
    }
  }
  for (const [model, row] of Object.entries(out)) {
    for (const [field, item] of Object.entries(row)) {
      if (Object.values(item.upstreams).every((value) => value === 'same')) delete row[field];
    }
    if (Object.keys(row).length === 0) delete out[model];
  }
  return out;
}
