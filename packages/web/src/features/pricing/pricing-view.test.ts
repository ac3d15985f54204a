import { pricingEntry } from '@gateway/shared';
import { describe, expect, it } from 'vitest';
import { availableFirst, fuzzyMatch, groupDescription, initialGroup, pricingRows } from './pricing-view';

describe('fuzzyMatch', () => {
  it.each([
    ['gpt-4o-mini', 'gpt', true],
    ['gpt-4o-mini', 'G4O MINI', true],
    ['gpt-4o-mini', '4omini', true],
    ['gpt-4o-mini', 'mini 4o', true],
    ['gpt-4o-mini', 'claude', false],
    ['claude-3-5-sonnet', 'sonet', true],
    ['claude-3-5-sonnet', 'sonnet5', false],
  ])('%s ~ %s → %s', (name, query, expected) => {
    expect(fuzzyMatch(name, query)).toBe(expected);
  });
});

describe('initialGroup', () => {
  it("opens on the user's group when it has a ratio, else default", () => {
    expect(initialGroup('vip', { default: 1, vip: 2 })).toBe('vip');
    expect(initialGroup('gone', { default: 1, vip: 2 })).toBe('default');
    expect(initialGroup(undefined, { vip: 2 })).toBe('vip');
  });
});

describe('pricingRows', () => {
  const entries = [
    pricingEntry('gpt-4o', ['vip'], { kind: 'tokens', modelRatio: 1.25, completionRatio: 4, cacheRatio: 1 }),
    pricingEntry('gpt-4o-mini', ['default', 'vip'], {
      kind: 'tokens',
      modelRatio: 0.075,
      completionRatio: 4,
      cacheRatio: 1,
    }),
  ];
  const usd = { displayInCurrency: true, quotaPerUnit: 500000 };

  it('prices every row for the viewed group and marks availability', () => {
    const rows = pricingRows(entries, 'vip', { default: 1, vip: 2 }, usd, '');
    // gpt-4o at vip: 1.25 × 2 × 2 = $5 in, × 4 = $20 out
    expect(rows[0]).toMatchObject({ available: true, price: { input: 5, output: 20 } });
    const atDefault = pricingRows(entries, 'default', { default: 1, vip: 2 }, usd, '');
    expect(atDefault.map((row) => row.available)).toEqual([false, true]);
    expect(availableFirst(atDefault).map((row) => row.model_name)).toEqual(['gpt-4o-mini', 'gpt-4o']);
  });

  it('orders rows by the spec rule whatever order the server sent', () => {
    const call = pricingEntry('mj_imagine', ['default'], { kind: 'call', price: 0.1 });
    const rows = pricingRows([call, ...entries].reverse(), 'default', { default: 1 }, usd, '');
    expect(rows.map((row) => row.model_name)).toEqual(['gpt-4o', 'gpt-4o-mini', 'mj_imagine']);
  });

  it('attaches the catalogue vendor named by an entry, and none for an unknown or absent vendor', () => {
    const vendor = { id: 7, name: 'OpenAI', description: 'GPT makers', icon: 'OpenAI' };
    const withVendor = [
      { ...entries[0]!, vendor_id: 7 },
      { ...entries[1]!, vendor_id: 99 },
    ];
    const rows = pricingRows(withVendor, 'vip', { vip: 1 }, usd, '', [vendor]);
    expect(rows.map((row) => row.vendor)).toEqual([vendor, undefined]);
    expect(pricingRows(entries, 'vip', { vip: 1 }, usd, '', [vendor]).map((row) => row.vendor)).toEqual([
      undefined,
      undefined,
    ]);
  });

  it('filters by the fuzzy search', () => {
    expect(pricingRows(entries, 'default', { default: 1 }, usd, 'mini').map((row) => row.model_name)).toEqual([
      'gpt-4o-mini',
    ]);
  });
});

describe('groupDescription', () => {
  const t = (key: string) => `t:${key}`;
  it.each([
    ['default', '默认分组', 't:pricing.shipped_groups.default'],
    ['vip', 'vip分组', 't:pricing.shipped_groups.vip'],
    ['vip', 'Premium customers', 'Premium customers'],
    ['svip', undefined, 'svip'],
    ['svip', 'svip', 'svip'],
  ])('%s described as %j reads %j', (group, description, expected) => {
    expect(groupDescription(group, description, t)).toBe(expected);
  });
});
