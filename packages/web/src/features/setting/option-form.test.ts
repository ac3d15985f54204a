import { describe, expect, it } from 'vitest';
import { changedOptions, parseNumberMap, saveOutcome, tightenCjk, toFormValue, toOptionString } from './option-form';

describe('option form values', () => {
  it('reads stored strings into the value each input holds', () => {
    expect(toFormValue('switch', 'true')).toBe(true);
    expect(toFormValue('switch', 'false')).toBe(false);
    expect(toFormValue('number', '500000')).toBe(500000);
    expect(toFormValue('number', '')).toBeNull();
    expect(toFormValue('secret', 'whatever')).toBe('');
    expect(toFormValue('text', undefined)).toBe('');
  });

  it('writes them back as the strings the server stores', () => {
    expect(toOptionString('switch', 'LogConsumeEnabled', true)).toBe('true');
    expect(toOptionString('number', 'RetryTimes', 3)).toBe('3');
    expect(toOptionString('number', 'RetryTimes', null)).toBe('');
    expect(toOptionString('url', 'ServerAddress', ' https://gw.example.com/ ')).toBe('https://gw.example.com');
    expect(toOptionString('url', 'TopUpLink', 'https://shop.example.com/')).toBe('https://shop.example.com/');
    expect(toOptionString('textarea', 'Notice', '  keep spacing  ')).toBe('  keep spacing  ');
  });
});

describe('changedOptions', () => {
  const stored = {
    SystemName: 'Gateway',
    RetryTimes: '0',
    GitHubOAuthEnabled: 'false',
    GitHubClientId: '',
    GitHubClientSecret: '',
  };
  const fields = [
    { key: 'GitHubOAuthEnabled', kind: 'switch' as const },
    { key: 'SystemName', kind: 'text' as const },
    { key: 'RetryTimes', kind: 'number' as const },
    { key: 'GitHubClientId', kind: 'text' as const },
    { key: 'GitHubClientSecret', kind: 'secret' as const },
  ];

  it('sends nothing when nothing changed, empty secrets included', () => {
    const values = { GitHubOAuthEnabled: false, SystemName: 'Gateway', RetryTimes: 0, GitHubClientId: '' };
    expect(changedOptions(fields, stored, { ...values, GitHubClientSecret: '' })).toEqual([]);
  });

  it('sends only the changed keys, a typed secret included, switches turned on last', () => {
    const values = {
      GitHubOAuthEnabled: true,
      SystemName: 'Gateway',
      RetryTimes: 2,
      GitHubClientId: 'gh-id',
      GitHubClientSecret: 'gh-secret',
    };
    expect(changedOptions(fields, stored, values)).toEqual([
      ['RetryTimes', '2'],
      ['GitHubClientId', 'gh-id'],
      ['GitHubClientSecret', 'gh-secret'],
      ['GitHubOAuthEnabled', 'true'],
    ]);
  });

  it('treats a value that only differs by a trailing slash of a base address as unchanged', () => {
    const address = [{ key: 'ServerAddress', kind: 'url' as const }];
    expect(
      changedOptions(
        address,
        { ServerAddress: 'https://gw.example.com' },
        { ServerAddress: 'https://gw.example.com/' },
      ),
    ).toEqual([]);
  });
});

describe('saveOutcome', () => {
  const ok = (key: string) => ({ key, ok: true, message: '' });
  const bad = (key: string) => ({ key, ok: false, message: 'no' });

  it.each([
    [[], 'unchanged'],
    [[ok('a'), ok('b')], 'saved'],
    [[ok('a'), bad('b')], 'partial'],
    [[bad('a'), bad('b')], 'failed'],
  ] as const)('%j → %s', (results, outcome) => {
    expect(saveOutcome(results)).toBe(outcome);
  });
});

describe('parseNumberMap', () => {
  it('parses a map and refuses anything else', () => {
    expect(parseNumberMap('{"gpt-4o": 1.25}')).toEqual({ 'gpt-4o': 1.25 });
    expect(parseNumberMap('[1]')).toBeNull();
    expect(parseNumberMap('{oops')).toBeNull();
  });
});

describe('tightenCjk', () => {
  it('drops the space a key-shaped template leaves between Chinese words, nowhere else', () => {
    expect(tightenCjk('充值分组倍率 不是合法的 JSON 字符串')).toBe('充值分组倍率不是合法的 JSON 字符串');
    expect(tightenCjk('模型倍率（ModelRatio） 不是合法的 JSON 字符串')).toBe(
      '模型倍率（ModelRatio）不是合法的 JSON 字符串',
    );
    expect(tightenCjk('默认最大输出 tokens 的 JSON 结构不正确')).toBe('默认最大输出 tokens 的 JSON 结构不正确');
    expect(tightenCjk('ModelRatio is not a valid JSON string')).toBe('ModelRatio is not a valid JSON string');
  });
});
