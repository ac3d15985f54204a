import { describe, expect, it } from 'vitest';
import {
  applyPricingRow,
  buildPricingRows,
  cleanNumber,
  type PricingMaps,
  ratiosFromTokenPrices,
  removePricingRow,
  sameNumberMap,
  tokenPricesFromRatios,
  unpricedModels,
} from './ratio-price.js';

const maps = (): PricingMaps => ({
  ModelPrice: { 'dall-e-3': 0.04 },
  ModelRatio: { 'gpt-4o': 1.25, 'gpt-4o-mini': 0.075, 'text-embedding-3-small': 0.01 },
  CompletionRatio: { 'gpt-4o': 4, 'gpt-4o-mini': 4, 'only-completion': 2 },
});

describe('ratio ⇄ price per 1M tokens (hand-worked)', () => {
  it.each([
    // gpt-4o: ratio 1.25 → $2.50 in; completion 4 → $10 out
    [1.25, 4, 2.5, 10],
    // gpt-4o-mini: 0.075 × 2 = $0.15 in; × 4 = $0.60 out (no 0.15000000000000002)
    [0.075, 4, 0.15, 0.6],
    // ratio 1 is $2 per 1M; no completion ratio means output costs the same
    [1, 1, 2, 2],
    // gemini-2.5-flash: 0.15 → $0.30 in; × 8.33 → $2.499 out
    [0.15, 8.33, 0.3, 2.499],
  ])('ratio %s, completion %s → $%s in, $%s out', (ratio, completion, input, output) => {
    expect(tokenPricesFromRatios(ratio, completion)).toEqual({ tokenPrice: input, completionTokenPrice: output });
  });

  it.each([
    // $3 in, $15 out (Claude Sonnet) → ratio 1.5, completion 5
    [3, 15, 1.5, 5],
    // $0.15 in, $0.60 out → 0.075 and 4
    [0.15, 0.6, 0.075, 4],
    // $1.10 in, $4.40 out (o3-mini) → 0.55 and 4
    [1.1, 4.4, 0.55, 4],
    // no output price: completion ratio 1
    [2, undefined, 1, 1],
    // free input: completion ratio cannot be a quotient, 1
    [0, 5, 0, 1],
  ])('$%s in, $%s out → ratio %s, completion %s', (input, output, ratio, completionRatio) => {
    expect(ratiosFromTokenPrices(input, output)).toEqual({ ratio, completionRatio });
  });

  it('round-trips a price through the ratio', () => {
    const { ratio, completionRatio } = ratiosFromTokenPrices(0.3, 2.5);
    expect(tokenPricesFromRatios(ratio, completionRatio)).toEqual({ tokenPrice: 0.3, completionTokenPrice: 2.5 });
  });

  it('cleans float noise but keeps tiny prices', () => {
    expect(cleanNumber(0.1 + 0.2)).toBe(0.3);
    expect(cleanNumber(0.0000005)).toBe(0.0000005);
  });
});

describe('pricing rows', () => {
  it('makes one row per model, a fixed price winning, with prices derived from the ratios', () => {
    const rows = buildPricingRows({ ...maps(), ModelRatio: { ...maps().ModelRatio, 'dall-e-3': 9 } });
    expect(rows.map((row) => row.name)).toEqual([
      'dall-e-3',
      'gpt-4o',
      'gpt-4o-mini',
      'only-completion',
      'text-embedding-3-small',
    ]);
    expect(rows[0]).toEqual({ name: 'dall-e-3', mode: 'per-request', price: 0.04 });
    expect(rows[1]).toEqual({
      name: 'gpt-4o',
      mode: 'per-token',
      ratio: 1.25,
      completionRatio: 4,
      tokenPrice: 2.5,
      completionTokenPrice: 10,
    });
    // a completion ratio alone does not price a model: no prices to show
    expect(rows[3]).toEqual({ name: 'only-completion', mode: 'per-token', ratio: undefined, completionRatio: 2 });
    expect(rows[4]).toMatchObject({ tokenPrice: 0.02, completionTokenPrice: 0.02 });
  });

  it('saving per-token clears the fixed price', () => {
    const next = applyPricingRow(maps(), { name: 'dall-e-3', mode: 'per-token', ratio: 20, completionRatio: 1 });
    expect(next.ModelPrice).toEqual({});
    expect(next.ModelRatio['dall-e-3']).toBe(20);
    expect(next.CompletionRatio['dall-e-3']).toBe(1);
  });

  it('saving per-request clears both ratios', () => {
    const next = applyPricingRow(maps(), { name: 'gpt-4o', mode: 'per-request', price: 0.5 });
    expect(next.ModelPrice['gpt-4o']).toBe(0.5);
    expect(Object.hasOwn(next.ModelRatio, 'gpt-4o')).toBe(false);
    expect(Object.hasOwn(next.CompletionRatio, 'gpt-4o')).toBe(false);
  });

  it('never changes the maps it was given', () => {
    const original = maps();
    applyPricingRow(original, { name: 'gpt-4o', mode: 'per-request', price: 0.5 });
    removePricingRow(original, 'gpt-4o-mini');
    expect(original).toEqual(maps());
  });

  it('removes a model from every map', () => {
    const next = removePricingRow(maps(), 'gpt-4o');
    expect(buildPricingRows(next).map((row) => row.name)).not.toContain('gpt-4o');
  });

  it('lists enabled models that nothing prices, once each, sorted', () => {
    expect(unpricedModels(['z-model', 'gpt-4o', 'dall-e-3', 'a-model', 'z-model', 'only-completion'], maps())).toEqual([
      'a-model',
      'only-completion',
      'z-model',
    ]);
  });

  it('compares maps by content', () => {
    expect(sameNumberMap({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(sameNumberMap({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameNumberMap({ a: 1 }, { a: 2 })).toBe(false);
  });
});
