import type { RatioConfig } from './ratio-config.js';

/** One ratio unit is $0.002 per 1K tokens: a ratio is USD per 1M input tokens divided by 2. */
const RATIO_UNIT_PER_TOKEN_USD = 0.000002;
const round = (value: number) => Math.round(value * 1e6) / 1e6;

interface OpenRouterModel {
  id?: unknown;
  pricing?: { prompt?: unknown; completion?: unknown; input_cache_read?: unknown };
}

const price = (value: unknown): number | null => {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  if (typeof value === 'string' && value.trim() === '') return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
};

/**
 * OpenRouter's `GET /api/v1/models` (USD per token, as strings) in ratio form: model ratio from the prompt price,
 * completion and cache-read ratios relative to it. Negative prices mean "variable" there and are skipped, as is a
 * model with an output price but no input price (no base to relate it to); a free model gets ratio 0. Null when the
 * body is not a model list.
 */
export function openRouterToRatioConfig(body: unknown): RatioConfig | null {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return null;
  const config = { model_ratio: {}, completion_ratio: {}, cache_ratio: {} } as Required<
    Pick<RatioConfig, 'model_ratio' | 'completion_ratio' | 'cache_ratio'>
  >;
  for (const model of data as OpenRouterModel[]) {
    if (typeof model?.id !== 'string' || model.id.trim() === '') continue;
    const prompt = price(model.pricing?.prompt);
    const completion = price(model.pricing?.completion);
    if (prompt === null && completion === null) continue;
    const input = prompt ?? 0;
    const output = completion ?? 0;
    if (input < 0 || output < 0) continue;
    if (input === 0) {
      if (output === 0) config.model_ratio[model.id] = 0;
      continue;
    }
    config.model_ratio[model.id] = round(input / RATIO_UNIT_PER_TOKEN_USD);
    config.completion_ratio[model.id] = round(output / input);
    const cacheRead = price(model.pricing?.input_cache_read);
    if (cacheRead !== null && cacheRead >= 0) config.cache_ratio[model.id] = round(cacheRead / input);
  }
  return config;
}

interface PricingItem {
  model_name?: unknown;
  quota_type?: unknown;
  model_ratio?: unknown;
  model_price?: unknown;
  completion_ratio?: unknown;
  cache_ratio?: unknown;
}

/**
 * A family gateway's `GET /api/pricing` list in ratio form, for gateways that do not expose `/api/ratio_config`:
 * quota type 1 is a fixed price per call, anything else per token. Null when `data` is not a list.
 */
export function pricingListToRatioConfig(data: unknown): RatioConfig | null {
  if (!Array.isArray(data)) return null;
  const config = { model_ratio: {}, completion_ratio: {}, cache_ratio: {}, model_price: {} } as Required<RatioConfig>;
  const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null);
  for (const item of data as PricingItem[]) {
    if (typeof item?.model_name !== 'string' || item.model_name.trim() === '') continue;
    const name = item.model_name;
    const set = (field: keyof RatioConfig, value: unknown) => {
      const number = num(value);
      if (number !== null) config[field][name] = number;
    };
    if (item.quota_type === 1) set('model_price', item.model_price);
    else {
      set('model_ratio', item.model_ratio);
      set('completion_ratio', item.completion_ratio);
    }
    set('cache_ratio', item.cache_ratio);
  }
  return config;
}
