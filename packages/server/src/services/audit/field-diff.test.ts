import { describe, expect, it } from 'vitest';
import { fieldDiff, MASKED } from './field-diff.js';

describe('fieldDiff', () => {
  it('lists only changed fields, masking secrets and skipping ignored ones', () => {
    const before = { name: 'a', key: 'sk-old', used: 1, weight: 0 };
    const after = { name: 'b', key: 'sk-new', used: 9, weight: 0 };
    expect(fieldDiff(before, after, { secret: new Set(['key']), ignore: new Set(['used']) })).toEqual([
      { field: 'name', before: 'a', after: 'b' },
      { field: 'key', before: MASKED, after: MASKED },
    ]);
  });

  it('keeps an emptied secret visibly empty and an unchanged secret out', () => {
    const secret = new Set(['token']);
    expect(fieldDiff({ token: 'x' }, { token: '' }, { secret })).toEqual([
      { field: 'token', before: MASKED, after: '' },
    ]);
    expect(fieldDiff({ token: 'x' }, { token: 'x' }, { secret })).toEqual([]);
  });

  it('lists the filled fields of a created or deleted entity, with a prefix', () => {
    expect(fieldDiff(null, { a: 1, b: '', c: null, d: 0 }, { prefix: 'P.' })).toEqual([
      { field: 'P.a', before: null, after: 1 },
      { field: 'P.d', before: null, after: 0 },
    ]);
    expect(fieldDiff({ a: 'x', b: '' }, null)).toEqual([{ field: 'a', before: 'x', after: null }]);
  });

  it('compares nested values by content and reports added and removed entries', () => {
    expect(fieldDiff({ m: { x: 1 }, gone: 2 }, { m: { x: 1 }, added: 3 })).toEqual([
      { field: 'gone', before: 2, after: null },
      { field: 'added', before: null, after: 3 },
    ]);
  });
});
