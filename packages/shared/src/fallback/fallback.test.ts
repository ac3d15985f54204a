import { describe, expect, it } from 'vitest';
import { validateOption } from '../options/validate.js';
import { tokenUpdateSchema } from '../schemas/token.js';
import {
  fallbackFieldsSchema,
  fallsBackOn,
  parseGroupFallbackModels,
  parseStatusRanges,
  splitModelList,
} from './fields.js';

describe('fallback models and statuses', () => {
  it('reads a comma list in order, trimmed, without blanks or repeats', () => {
    expect(splitModelList(' b , a,,b ,c ')).toEqual(['b', 'a', 'c']);
    expect(splitModelList(null)).toEqual([]);
  });

  it('stores a token list normalised and refuses more than five names or an overlong one', () => {
    expect(fallbackFieldsSchema.parse({ fallback_models: ' x, y ,x' })).toEqual({ fallback_models: 'x,y' });
    expect(fallbackFieldsSchema.parse({})).toEqual({});
    expect(fallbackFieldsSchema.safeParse({ fallback_models: 'a,b,c,d,e,f' }).error?.issues[0]?.message).toBe(
      'token_fallback_models_invalid',
    );
    expect(fallbackFieldsSchema.safeParse({ fallback_models: 'm'.repeat(129) }).success).toBe(false);
    const update = tokenUpdateSchema.parse({ id: 1, name: 't', fallback_models: 'a,a' });
    expect(update.fallback_models).toBe('a');
    expect('fallback_models' in tokenUpdateSchema.parse({ id: 1, name: 't' })).toBe(false);
  });

  it('accepts group → list of models and nothing else', () => {
    expect(parseGroupFallbackModels({ default: ['a', 'b'], vip: [] })).toEqual({ default: ['a', 'b'], vip: [] });
    for (const bad of [[], { default: 'a' }, { '': ['a'] }, { g: ['a', 'a'] }, { g: [' a'] }, { g: [1] }, null]) {
      expect(parseGroupFallbackModels(bad)).toBeNull();
    }
    expect(validateOption('GroupFallbackModels', '{"default":["gpt-4o-mini"]}')).toBeNull();
    expect(validateOption('GroupFallbackModels', '{"default":"gpt-4o-mini"}')).toEqual({
      code: 'option_bad_group_fallback',
      params: { key: 'GroupFallbackModels' },
    });
  });

  it('reads status codes and ranges between 401 and 599; 400 can never be named', () => {
    expect(parseStatusRanges('')).toEqual([]);
    expect(parseStatusRanges('429, 500-599')).toEqual([
      [429, 429],
      [500, 599],
    ]);
    for (const bad of ['400', '400-499', '429,', 'abc', '600', '503-502', '50x']) {
      expect(parseStatusRanges(bad), bad).toBeNull();
    }
    expect(validateOption('FallbackStatusCodes', '429,502-504')).toBeNull();
    expect(validateOption('FallbackStatusCodes', '400')?.code).toBe('option_bad_fallback_status_codes');
  });

  it('falls back by default on 408, 429 and 5xx only, and on the chosen statuses when there are some', () => {
    const byDefault = [400, 401, 404, 408, 413, 429, 500, 502, 503, 504].filter((status) => fallsBackOn(status, []));
    expect(byDefault).toEqual([408, 429, 500, 502, 503, 504]);
    const chosen = parseStatusRanges('404,429')!;
    expect([400, 404, 429, 500].filter((status) => fallsBackOn(status, chosen))).toEqual([404, 429]);
  });
});
