import { describe, expect, it } from 'vitest';
import {
  displayedPrice,
  formatPriceAmount,
  isAvailableInGroup,
  orderPricingEntries,
  type PricingEntry,
  pricingEntry,
  QuotaType,
} from './model-price.js';

const usd = { displayInCurrency: true, quotaPerUnit: 500000 };
const quota = { displayInCurrency: false, quotaPerUnit: 500000 };

const mini = pricingEntry('gpt-4o-mini', ['default', 'vip'], {
  kind: 'tokens',
  modelRatio: 0.075,
  completionRatio: 4,
  cacheRatio: 0.5,
});
const midjourney = pricingEntry('mj_imagine', ['default'], { kind: 'call', price: 0.1 });

describe('pricingEntry', () => {
  it('fills the family fields for a per-token model', () => {
    expect(mini).toEqual({
      model_name: 'gpt-4o-mini',
      quota_type: 0,
      model_ratio: 0.075,
      completion_ratio: 4,
      model_price: 0,
      cache_ratio: 0.5,
      enable_groups: ['default', 'vip'],
    });
  });

  it('fills the family fields for a per-call model', () => {
    expect(midjourney).toMatchObject({ quota_type: 1, model_price: 0.1, model_ratio: 0, completion_ratio: 0 });
  });
});

describe('displayedPrice (spec 001 §9, hand-worked)', () => {
  it.each([
    // gpt-4o-mini, ratio 0.075 × 2 = $0.15 per 1M prompt; × completion 4 = $0.60; cached 0.15 × 0.5 = $0.075
    [mini, 1, { input: 0.15, output: 0.6, cachedInput: 0.075 }],
    // the same in group vip at ratio 1.5: 0.15 × 1.5 = $0.225, 0.6 × 1.5 = $0.9
    [mini, 1.5, { input: 0.225, output: 0.9, cachedInput: 0.1125 }],
    // claude-3-5-sonnet: ratio 1.5 × 2 = $3 in, × completion 5 = $15 out, group 0.5 halves both
    [
      pricingEntry('claude-3-5-sonnet', [], { kind: 'tokens', modelRatio: 1.5, completionRatio: 5, cacheRatio: 1 }),
      0.5,
      { input: 1.5, output: 7.5, cachedInput: 1.5 },
    ],
  ])('per token in dollars per 1M tokens', (entry, groupRatio, expected) => {
    expect(displayedPrice(entry, groupRatio, usd)).toEqual({ kind: 'tokens', unit: 'usd', ...expected });
  });

  it('per call: price × group ratio dollars', () => {
    // $0.1 per imagine × group 1.5 = $0.15
    expect(displayedPrice(midjourney, 1.5, usd)).toEqual({ kind: 'call', unit: 'usd', perCall: 0.15 });
  });

  it('without currency display: quota per 1M tokens, and per call price × QuotaPerUnit × group ratio', () => {
    // ratio 0.075 = 0.075 quota per token → 75,000 per 1M; × 4 → 300,000; cached × 0.5 → 37,500
    expect(displayedPrice(mini, 1, quota)).toEqual({
      kind: 'tokens',
      unit: 'quota',
      input: 75_000,
      output: 300_000,
      cachedInput: 37_500,
    });
    // $0.1 × 500,000 × 1.5 = 75,000 quota; with QuotaPerUnit 1,000,000 it is 150,000
    expect(displayedPrice(midjourney, 1.5, quota)).toEqual({ kind: 'call', unit: 'quota', perCall: 75_000 });
    expect(displayedPrice(midjourney, 1.5, { ...quota, quotaPerUnit: 1_000_000 })).toMatchObject({
      perCall: 150_000,
    });
  });
});

describe('formatPriceAmount', () => {
  it.each([
    [0.15, 'usd', '$0.15'],
    [0.6, 'usd', '$0.6'],
    [2.5, 'usd', '$2.5'],
    [15, 'usd', '$15'],
    [1.23456, 'usd', '$1.2346'],
    [0.0000015, 'usd', '$0.0000015'],
    [0.005, 'usd', '$0.005'],
    [0, 'usd', '$0'],
    [75_000, 'quota', '75k'],
    [1_500_000, 'quota', '1.5M'],
    [500, 'quota', '500'],
  ] as const)('%s %s → %s', (value, unit, text) => {
    expect(formatPriceAmount(value, unit)).toBe(text);
  });
});

describe('orderPricingEntries', () => {
  it('puts per-token models first, then gpt names, then the rest by name', () => {
    const names = (list: Pick<PricingEntry, 'model_name'>[]) => list.map((entry) => entry.model_name);
    const entries = [
      { model_name: 'mj_imagine', quota_type: QuotaType.PerCall },
      { model_name: 'claude-3-haiku', quota_type: QuotaType.PerToken },
      { model_name: 'gpt-4o', quota_type: QuotaType.PerToken },
      { model_name: 'gpt-4o-mini-tts', quota_type: QuotaType.PerCall },
      { model_name: 'deepseek-chat', quota_type: QuotaType.PerToken },
      { model_name: 'gpt-3.5-turbo', quota_type: QuotaType.PerToken },
    ];
    expect(names(orderPricingEntries(entries))).toEqual([
      'gpt-3.5-turbo',
      'gpt-4o',
      'claude-3-haiku',
      'deepseek-chat',
      'gpt-4o-mini-tts',
      'mj_imagine',
    ]);
  });
});

describe('isAvailableInGroup', () => {
  it('is true only for groups with an enabled channel', () => {
    expect([isAvailableInGroup(mini, 'vip'), isAvailableInGroup(mini, 'svip')]).toEqual([true, false]);
  });
});
