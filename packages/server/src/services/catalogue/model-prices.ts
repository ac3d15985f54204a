import { CATALOGUE_PRICE_FIELDS, type CataloguePrice, type OptionKey } from '@gateway/shared';
import type { OptionsStore } from '../../cache/options-store.js';

/**
 * A catalogue model's price lives in the ratio options, which the relay bills from: one map per field, keyed by
 * model name. The catalogue never keeps a copy, so the two cannot drift apart.
 */
const OPTION_OF: Record<keyof CataloguePrice, OptionKey> = {
  model_ratio: 'ModelRatio',
  model_price: 'ModelPrice',
  completion_ratio: 'CompletionRatio',
  cache_ratio: 'CacheRatio',
};

type PriceMap = Record<string, number>;

export function priceOf(options: OptionsStore, model: string): CataloguePrice {
  const price = {} as CataloguePrice;
  for (const field of CATALOGUE_PRICE_FIELDS) {
    const map = options.json<PriceMap | undefined>(OPTION_OF[field]) ?? {};
    price[field] = Object.hasOwn(map, model) ? Number(map[model]) : null;
  }
  return price;
}

export interface OptionWrite {
  key: OptionKey;
  before: string;
  after: string;
}

/**
 * The option values a price change needs: a number sets the model's entry, null removes it, a missing field leaves
 * it as it is. Maps that would not change are left out.
 */
export function priceWrites(options: OptionsStore, model: string, change: Partial<CataloguePrice>): OptionWrite[] {
  const writes: OptionWrite[] = [];
  for (const field of CATALOGUE_PRICE_FIELDS) {
    const value = change[field];
    if (value === undefined) continue;
    const key = OPTION_OF[field];
    const map = { ...(options.json<PriceMap | undefined>(key) ?? {}) };
    if (value === null && !Object.hasOwn(map, model)) continue;
    if (value !== null && map[model] === value) continue;
    if (value === null) delete map[model];
    else map[model] = value;
    writes.push({ key, before: options.get(key), after: JSON.stringify(map) });
  }
  return writes;
}
