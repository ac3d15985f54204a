import { describe, expect, it } from 'vitest';
import { epaySign, epayVerify } from '../../src/services/payments/epay.js';
import {
  amountDiscounts,
  amountOptions,
  discountFor,
  epayType,
  groupRatioFor,
  payableMoney,
  tradeNumber,
} from '../../src/services/payments/epay-order.js';

describe('payable money for an online top-up', () => {
  it.each([
    // amount, price, group ratio, discounts, expected (worked by hand)
    [10, 7.3, 1, {}, 73], // 10 × 7.3
    [10, 7.3, 1.5, {}, 109.5], // 10 × 7.3 × 1.5
    [100, 7.3, 1, { '100': 0.9 }, 657], // 100 × 7.3 × 0.9
    [100, 7.3, 1.5, { '100': 0.9 }, 985.5], // 100 × 7.3 × 1.5 × 0.9
    [50, 7.3, 1, { '100': 0.9 }, 365], // no discount for 50
    [3, 0.333, 1, {}, 1], // 0.999 rounds to cents: 1.00
    [1, 0.125, 1, {}, 0.13], // half a cent rounds up
  ])('%d units at %d × %d with %o cost %d', (amount, price, groupRatio, discounts, expected) => {
    expect(payableMoney(amount, { price, groupRatio, discounts })).toBe(expected);
  });

  it('ignores discount factors that are not above 0', () => {
    expect(discountFor(10, { '10': 0 })).toBe(1);
    expect(discountFor(10, { '10': -1 })).toBe(1);
    expect(discountFor(10, { '10': 0.8 })).toBe(0.8);
  });

  it('reads the group ratio defensively', () => {
    expect(groupRatioFor('vip', { vip: 0.8 })).toBe(0.8);
    expect(groupRatioFor('vip', { default: 2 })).toBe(1);
    expect(groupRatioFor('vip', undefined)).toBe(1);
    expect(groupRatioFor('vip', { vip: 'x' })).toBe(1);
    expect(groupRatioFor('vip', { vip: 0 })).toBe(1);
  });

  it('keeps only usable quick picks and discounts', () => {
    expect(amountOptions([50, 10, 'x', -5, 1.5, 10, 0])).toEqual([10, 50]);
    expect(amountOptions('nope')).toEqual([]);
    expect(amountDiscounts({ '100': 0.9, '200': 1.2, abc: 0.5, '0': 0.5, '50': 0 })).toEqual({ '100': 0.9 });
    expect(amountDiscounts([0.9])).toEqual({});
  });
});

describe('epay wire details', () => {
  it('maps the console methods to the gateway types and refuses others', () => {
    expect(epayType('zfb')).toBe('alipay');
    expect(epayType('wx')).toBe('wxpay');
    expect(epayType('alipay')).toBe('alipay');
    expect(epayType('stripe')).toBeUndefined();
    expect(epayType('__proto__')).toBeUndefined();
  });

  it('numbers orders the family way', () => {
    expect(tradeNumber(7, 'aB3dE9', 1_700_000_000)).toBe('USR7NOaB3dE91700000000');
  });

  it('signs sorted non-empty parameters with the key appended, and verifies only an exact signature', () => {
    // md5sum of the text "a=1&b=2key" (worked out with coreutils)
    const params = { b: '2', a: '1', empty: '', sign_type: 'MD5' };
    const sign = epaySign(params, 'key');
    expect(sign).toBe('1c123a5dc12e90deeaa1cd94681f0d88');
    expect(epayVerify({ ...params, sign }, 'key')).toBe(true);
    expect(epayVerify({ ...params, sign: sign.toUpperCase() }, 'key')).toBe(true);
    expect(epayVerify({ ...params, sign }, 'other-key')).toBe(false);
    expect(epayVerify({ ...params, a: '9', sign }, 'key')).toBe(false);
    expect(epayVerify({ ...params, sign: sign.slice(0, 31) }, 'key')).toBe(false);
    expect(epayVerify(params, 'key')).toBe(false);
  });
});
