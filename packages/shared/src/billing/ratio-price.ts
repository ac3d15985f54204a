import { pricePerMillion, ratioFromPrice } from './quota.js';

/**
 * The ratio settings' visual editor works on rows (spec 001 §3 "Model pricing row") but stores three JSON maps.
 * These pure functions convert between the two, and between ratios and dollar prices per 1M tokens
 * (ratio = price / 2, completion ratio = output price / input price; spec 001 §4 and §9).
 */
export type PricingMode = 'per-token' | 'per-request';

export type NumberMap = Record<string, number>;

export interface PricingMaps {
  ModelPrice: NumberMap;
  ModelRatio: NumberMap;
  CompletionRatio: NumberMap;
}

export interface ModelPricingRow {
  name: string;
  mode: PricingMode;
  /** Dollars per request (per-request mode). */
  price?: number;
  ratio?: number;
  completionRatio?: number;
  /** Dollars per 1M prompt tokens. */
  tokenPrice?: number;
  /** Dollars per 1M completion tokens. */
  completionTokenPrice?: number;
}

/** Drops binary floating-point noise (0.15000000000000002 → 0.15) without rounding away small prices. */
export function cleanNumber(value: number): number {
  return Number(value.toPrecision(12));
}

export function tokenPricesFromRatios(ratio: number, completionRatio = 1) {
  const { prompt, completion } = pricePerMillion(ratio, completionRatio, 1);
  return { tokenPrice: cleanNumber(prompt), completionTokenPrice: cleanNumber(completion) };
}

/** Without an output price (or with a free input) the completion ratio is 1, as the family does. */
export function ratiosFromTokenPrices(tokenPrice: number, completionTokenPrice?: number) {
  const { modelRatio, completionRatio } = ratioFromPrice(tokenPrice, completionTokenPrice);
  return { ratio: cleanNumber(modelRatio), completionRatio: cleanNumber(completionRatio) };
}

/** One row per model named in any of the maps; a fixed price wins over ratios, as in billing. */
export function buildPricingRows(maps: PricingMaps): ModelPricingRow[] {
  const names = new Set([
    ...Object.keys(maps.ModelPrice),
    ...Object.keys(maps.ModelRatio),
    ...Object.keys(maps.CompletionRatio),
  ]);
  return [...names]
    .sort((a, b) => a.localeCompare(b))
    .map((name) => {
      if (Object.hasOwn(maps.ModelPrice, name)) return { name, mode: 'per-request', price: maps.ModelPrice[name] };
      const ratio = maps.ModelRatio[name];
      const completionRatio = maps.CompletionRatio[name];
      const row: ModelPricingRow = { name, mode: 'per-token', ratio, completionRatio };
      return ratio === undefined ? row : { ...row, ...tokenPricesFromRatios(ratio, completionRatio ?? 1) };
    });
}

/**
 * Writes one row into copies of the maps. Per-token clears the fixed price; per-request clears both ratios
 * (spec 001 §4), so the model is priced one way only.
 */
export function applyPricingRow(maps: PricingMaps, row: ModelPricingRow): PricingMaps {
  const next = removePricingRow(maps, row.name);
  if (row.mode === 'per-request') {
    next.ModelPrice[row.name] = row.price ?? 0;
    return next;
  }
  next.ModelRatio[row.name] = row.ratio ?? 0;
  if (row.completionRatio !== undefined) next.CompletionRatio[row.name] = row.completionRatio;
  return next;
}

export function removePricingRow(maps: PricingMaps, name: string): PricingMaps {
  const without = (map: NumberMap) => Object.fromEntries(Object.entries(map).filter(([key]) => key !== name));
  return {
    ModelPrice: without(maps.ModelPrice),
    ModelRatio: without(maps.ModelRatio),
    CompletionRatio: without(maps.CompletionRatio),
  };
}

/** Models served by some enabled channel that neither a fixed price nor a ratio prices: calls to them fail. */
export function unpricedModels(enabled: readonly string[], maps: Pick<PricingMaps, 'ModelPrice' | 'ModelRatio'>) {
  return [...new Set(enabled)]
    .filter((name) => !Object.hasOwn(maps.ModelPrice, name) && !Object.hasOwn(maps.ModelRatio, name))
    .sort((a, b) => a.localeCompare(b));
}

/** Entries equal regardless of key order or formatting: saving an unchanged map would be a no-op write. */
export function sameNumberMap(a: NumberMap, b: NumberMap): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key]);
}
