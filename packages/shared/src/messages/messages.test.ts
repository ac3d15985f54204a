import { describe, expect, it } from 'vitest';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '../languages.js';
import { formatWait } from '../limits/period.js';
import { MESSAGES, type MessageCode, messageTemplate, pickLanguage, translate } from '../messages.js';
import { TRANSLATED_MESSAGES } from './index.js';

const codes = Object.keys(MESSAGES).sort() as MessageCode[];
const placeholders = (text: string) => [...new Set(text.match(/\{\w+\}/g) ?? [])].sort();

describe('server messages in every language', () => {
  it('registers a catalogue for every language besides zh and en, and a name for every language', () => {
    expect(Object.keys(TRANSLATED_MESSAGES).sort()).toEqual(LANGUAGES.filter((l) => l !== 'zh' && l !== 'en').sort());
    expect(Object.keys(LANGUAGE_NAMES).sort()).toEqual([...LANGUAGES].sort());
  });

  it.each(Object.entries(TRANSLATED_MESSAGES))('%s has exactly the keys of the catalogue', (_lang, catalogue) => {
    expect(Object.keys(catalogue).sort()).toEqual(codes);
  });

  it.each(LANGUAGES)('%s has a non-empty text for every key', (lang) => {
    const empty = codes.filter((code) => messageTemplate(code, lang).trim() === '');
    expect(empty).toEqual([]);
  });

  it.each(LANGUAGES)('%s keeps the placeholders of the English text', (lang) => {
    const differing = codes.filter(
      (code) => placeholders(messageTemplate(code, lang)).join() !== placeholders(MESSAGES[code].en).join(),
    );
    expect(differing).toEqual([]);
  });

  it('fills placeholders in the requested language', () => {
    for (const lang of LANGUAGES) {
      const text = translate('token_group_unusable', lang, { group: 'vip-x' });
      expect(text).toContain('vip-x');
      expect(text).not.toContain('{group}');
    }
  });
});

describe('Accept-Language', () => {
  const cases: Array<[string | undefined, Language]> = [
    [undefined, 'zh'],
    ['', 'zh'],
    ['zh-CN,zh;q=0.9', 'zh'],
    ['zh-Hans-CN', 'zh'],
    ['en-US,en;q=0.9', 'en'],
    ['en-GB', 'en'],
    ['EN', 'en'],
    ['de-DE', 'zh'],
    ['*', 'zh'],
    ['de-DE,en;q=0.8', 'en'],
    ['en;q=0.5,zh-CN;q=0.9', 'zh'],
    ['en;q=0,zh', 'zh'],
    ['zh-TW,zh;q=0.9', 'zh-TW'],
    ['zh-HK', 'zh-TW'],
    ['zh-Hant', 'zh-TW'],
    ['zh-Hant-TW', 'zh-TW'],
    ['zh-MO', 'zh-TW'],
    ['zh-Hans-HK', 'zh'],
    ['ja', 'ja'],
    ['ja-JP,ja;q=0.9,en;q=0.8', 'ja'],
    ['de,ja;q=0.5', 'ja'],
    ['fr-FR,fr;q=0.9,en-US;q=0.8', 'fr'],
    ['fr-CA', 'fr'],
    ['ru-RU,ru;q=0.9', 'ru'],
    ['uk-UA,ru;q=0.8,en;q=0.6', 'ru'],
    ['vi-VN,vi;q=0.9', 'vi'],
    ['vi', 'vi'],
  ];
  it.each(cases)('%s → %s', (header, lang) => {
    expect(pickLanguage(header)).toBe(lang);
  });
});

describe('waits in every language', () => {
  const wait = 8 * 3600 + 52 * 60 + 10;
  it.each([
    ['zh', '8 小时 53 分钟'],
    ['zh-TW', '8 小時 53 分鐘'],
    ['en', '8 h 53 min'],
    ['ja', '8時間53分'],
    ['fr', '8\u00a0h 53\u00a0min'],
    ['ru', '8\u00a0ч 53\u00a0мин'],
    ['vi', '8 giờ 53 phút'],
  ] satisfies Array<[Language, string]>)('%s: %s', (lang, text) => {
    expect(formatWait(wait, lang)).toBe(text);
  });
});
