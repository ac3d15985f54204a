import { describe, expect, it } from 'vitest';
import { openRouterToRatioConfig, pricingListToRatioConfig } from './openrouter.js';
import { applyPriceChanges, diffRatioConfigs, parseRatioConfig } from './ratio-config.js';

describe('price sync conversions', () => {
  it('turns OpenRouter per-token prices into ratios', () => {
    const config = openRouterToRatioConfig({
      data: [
        { id: 'a', pricing: { prompt: '0.000003', completion: '0.000015', input_cache_read: '0.0000003' } },
        { id: 'free', pricing: { prompt: '0', completion: '0' } },
        { id: 'variable', pricing: { prompt: '-1', completion: '-1' } },
        { id: 'no-input', pricing: { prompt: '0', completion: '0.00001' } },
        { id: 'junk', pricing: { prompt: 'x', completion: '' } },
      ],
    });
    expect(config).toEqual({
      model_ratio: { a: 1.5, free: 0 },
      completion_ratio: { a: 5 },
      cache_ratio: { a: 0.1 },
    });
    expect(openRouterToRatioConfig({ models: [] })).toBeNull();
  });

  it('reads a family price list: per-call prices and per-token ratios', () => {
    expect(
      pricingListToRatioConfig([
        { model_name: 'call', quota_type: 1, model_price: 0.2, model_ratio: 37.5 },
        { model_name: 'tok', quota_type: 0, model_ratio: 2, completion_ratio: 3, cache_ratio: 0.5 },
      ]),
    ).toEqual({
      model_ratio: { tok: 2 },
      completion_ratio: { tok: 3 },
      cache_ratio: { tok: 0.5 },
      model_price: { call: 0.2 },
    });
  });

  it('drops bad entries of a ratio config and refuses one with no known field', () => {
    expect(parseRatioConfig({ model_ratio: { ok: 1, neg: -1, text: 'x', num: '2' } })).toEqual({
      model_ratio: { ok: 1, num: 2 },
    });
    expect(parseRatioConfig({ hello: 1 })).toBeNull();
    expect(parseRatioConfig([1])).toBeNull();
  });

  it('diffs per model and field and applies only the chosen rows', () => {
    const local = { model_ratio: { a: 2, untouched: 9 }, cache_ratio: { a: 0.5 } };
    const changes = diffRatioConfigs(local, { model_ratio: { a: 1.5, b: 1 }, completion_ratio: { a: 5 } });
    expect(changes).toEqual([
      { model: 'a', field: 'model_ratio', kind: 'changed', before: 2, after: 1.5 },
      { model: 'a', field: 'completion_ratio', kind: 'added', before: null, after: 5 },
      { model: 'a', field: 'cache_ratio', kind: 'removed', before: 0.5, after: null },
      { model: 'b', field: 'model_ratio', kind: 'added', before: null, after: 1 },
    ]);
    expect(applyPriceChanges(local, [changes[0]!, changes[2]!])).toEqual({
      model_ratio: { a: 1.5, untouched: 9 },
      cache_ratio: {},
    });
  });
});
