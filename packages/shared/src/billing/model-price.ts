import { abbreviateNumber, DEFAULT_QUOTA_PER_UNIT, type QuotaDisplay } from '../quota.js';
import { pricePerMillion } from './quota.js';

/**
 * The public model price list (`GET /api/pricing`, spec 001 §3 "Pricing model entry") and the prices the pricing
 * page shows for it (spec 001 §9). The server builds entries with `pricingEntry`; the console orders and prices
 * them with the functions below, so both speak one set of formulas.
 */
export const QuotaType = { PerToken: 0, PerCall: 1 } as const;
export type QuotaTypeValue = (typeof QuotaType)[keyof typeof QuotaType];

export interface PricingEntry {
  model_name: string;
  /** 0 pay per token (ratios), 1 pay per call (fixed price). */
  quota_type: QuotaTypeValue;
  model_ratio: number;
  completion_ratio: number;
  /** Dollars per call (quota_type 1), else 0. */
  model_price: number;
  /** Prompt tokens read from the provider's cache cost this share of the prompt rate (quota_type 0). */
  cache_ratio: number;
  /** Groups with at least one enabled channel serving the model. */
  enable_groups: string[];
  /** From the model catalogue, when it has the model (the family's fields); 0 / absent = none. */
  vendor_id?: number;
  description?: string;
  icon?: string;
  tags?: string;
}

/** A catalogue vendor as the price list shows it (the family's `vendors` beside `data`). */
export interface PricingVendor {
  id: number;
  name: string;
  description: string;
  /** A bundled icon's name ("OpenAI", "Claude.Color"); '' none. */
  icon: string;
}

/** The whole answer: the family's shape, with the group ratios and usable groups beside `data`. */
export interface PricingResponse {
  success: boolean;
  message: string;
  data: PricingEntry[];
  /** Group → ratio, only for groups the caller may use. */
  group_ratio: Record<string, number>;
  /** Group → description: the groups the caller may use. */
  usable_group: Record<string, string>;
  /** The catalogue's vendors (see `vendor_id` on an entry). */
  vendors: PricingVendor[];
}

/** How a model is billed, as the relay decides it (a fixed price wins over ratios). */
export type ModelBilling =
  | { kind: 'call'; price: number }
  | { kind: 'tokens'; modelRatio: number; completionRatio: number; cacheRatio: number };

export function pricingEntry(model: string, groups: readonly string[], billing: ModelBilling): PricingEntry {
  const base = { model_name: model, enable_groups: [...groups] };
  if (billing.kind === 'call') {
    return {
      ...base,
      quota_type: QuotaType.PerCall,
      model_ratio: 0,
      completion_ratio: 0,
      model_price: billing.price,
      cache_ratio: 0,
    };
  }
  return {
    ...base,
    quota_type: QuotaType.PerToken,
    model_ratio: billing.modelRatio,
    completion_ratio: billing.completionRatio,
    model_price: 0,
    cache_ratio: billing.cacheRatio,
  };
}

/**
 * The list's order (spec 001 "Pricing"): pay-per-token models first, then names starting with "gpt", then by name.
 * Returns a sorted copy.
 */
export function orderPricingEntries<T extends Pick<PricingEntry, 'quota_type' | 'model_name'>>(entries: readonly T[]) {
  const isGpt = (entry: T) => (entry.model_name.startsWith('gpt') ? 0 : 1);
  return [...entries].sort(
    (a, b) =>
      a.quota_type - b.quota_type ||
      isGpt(a) - isGpt(b) ||
      a.model_name.localeCompare(b.model_name, 'en') ||
      (a.model_name < b.model_name ? -1 : a.model_name > b.model_name ? 1 : 0),
  );
}

export function isAvailableInGroup(entry: Pick<PricingEntry, 'enable_groups'>, group: string): boolean {
  return entry.enable_groups.includes(group);
}

/** Prices in the unit the operator shows money in: dollars, or raw quota when currency display is off. */
export type PriceUnit = 'usd' | 'quota';

export type DisplayedPrice =
  | { kind: 'tokens'; unit: PriceUnit; input: number; output: number; cachedInput: number }
  | { kind: 'call'; unit: PriceUnit; perCall: number };

/**
 * What one model costs for a group (spec 001 §9): per 1M tokens, prompt = model ratio × 2 × group ratio and
 * completion = model ratio × completion ratio × 2 × group ratio dollars; per call, price × group ratio dollars.
 * Without currency display the same amounts are given in quota: a ratio of 1 is 1 quota per token, and a dollar
 * is QuotaPerUnit quota.
 */
export function displayedPrice(entry: PricingEntry, groupRatio: number, display: QuotaDisplay): DisplayedPrice {
  const unit: PriceUnit = display.displayInCurrency ? 'usd' : 'quota';
  if (entry.quota_type === QuotaType.PerCall) {
    const dollars = entry.model_price * groupRatio;
    const perUnit = display.quotaPerUnit > 0 ? display.quotaPerUnit : DEFAULT_QUOTA_PER_UNIT;
    return { kind: 'call', unit, perCall: unit === 'usd' ? clean(dollars) : Math.round(dollars * perUnit) };
  }
  if (unit === 'quota') {
    const perMillion = entry.model_ratio * 1_000_000 * groupRatio;
    return {
      kind: 'tokens',
      unit,
      input: Math.round(perMillion),
      output: Math.round(perMillion * entry.completion_ratio),
      cachedInput: Math.round(perMillion * entry.cache_ratio),
    };
  }
  const { prompt, completion } = pricePerMillion(entry.model_ratio, entry.completion_ratio, groupRatio);
  return {
    kind: 'tokens',
    unit,
    input: clean(prompt),
    output: clean(completion),
    cachedInput: clean(prompt * entry.cache_ratio),
  };
}

/** "$0.15", "$2.5", "$0.0000015"; quota amounts abbreviated ("1.5M"). */
export function formatPriceAmount(value: number, unit: PriceUnit): string {
  if (unit === 'quota') return abbreviateNumber(value);
  if (value === 0) return '$0';
  const abs = Math.abs(value);
  const text =
    abs >= 0.01 ? trimZeros(abs.toFixed(4)) : trimZeros(abs.toFixed(Math.min(20, 1 - Math.floor(Math.log10(abs)) + 1)));
  return `${value < 0 ? '-' : ''}$${text}`;
}

function trimZeros(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/** Drops binary noise (0.30000000000000004 → 0.3). */
function clean(value: number): number {
  return Number(value.toPrecision(12));
}
