import type { Language } from '@gateway/shared';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n, { antdLocale, chooseLanguage, currentLanguage, loadLanguage } from './i18n';

/** A first visit from a browser that prefers these languages (navigator.languages, most preferred first). */
async function visitWith(languages: string[]): Promise<Language> {
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);
  vi.spyOn(navigator, 'language', 'get').mockReturnValue(languages[0] ?? '');
  await i18n.changeLanguage(); // no argument: detect again, as on page load
  return currentLanguage();
}

afterEach(async () => {
  vi.restoreAllMocks();
  window.localStorage.clear();
  await i18n.changeLanguage('zh');
});

describe('console language', () => {
  const firstVisits: Array<[string[], Language]> = [
    [['en-US', 'en'], 'en'],
    [['en-GB'], 'en'],
    [['zh-CN', 'zh'], 'zh'],
    [['zh-Hans-SG'], 'zh'],
    [['zh-TW'], 'zh-TW'],
    [['zh-HK', 'en'], 'zh-TW'],
    [['ja-JP', 'en-US'], 'ja'],
    [['fr-BE', 'fr'], 'fr'],
    [['ru'], 'ru'],
    [['vi-VN', 'en-US'], 'vi'],
    [['de-DE', 'en-US'], 'en'],
    [['de-DE', 'pt-BR'], 'zh'],
    [[], 'zh'],
  ];
  it.each(firstVisits)('follows the browser on a first visit: %j → %s', async (languages, expected) => {
    expect(await visitWith(languages)).toBe(expected);
    // Only a choice is remembered: what the browser says is asked again next time.
    expect(window.localStorage.getItem('i18nextLng')).toBeNull();
  });

  it('prefers the remembered choice to the browser', async () => {
    window.localStorage.setItem('i18nextLng', 'en');
    expect(await visitWith(['zh-CN'])).toBe('en');
    window.localStorage.setItem('i18nextLng', 'zh');
    expect(await visitWith(['en-US'])).toBe('zh');
  });

  it('reads a regional variant stored by an older console as its language', async () => {
    window.localStorage.setItem('i18nextLng', 'en-US');
    expect(await visitWith(['zh-CN'])).toBe('en');
  });

  it('remembers a choice and moves dates and the page language along', async () => {
    await chooseLanguage('en');
    expect(window.localStorage.getItem('i18nextLng')).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(dayjs.locale()).toBe('en');
    await chooseLanguage('zh');
    expect(window.localStorage.getItem('i18nextLng')).toBe('zh');
    expect(dayjs.locale()).toBe('zh-cn');
    expect(i18n.t('header.language')).toBe('切换语言');
  });

  it('fetches a language that does not ship with the console before showing it, with antd and dates', async () => {
    await chooseLanguage('ja');
    expect(currentLanguage()).toBe('ja');
    expect(i18n.t('header.language')).toBe('言語を切り替え');
    expect(i18n.t('errors:not_found')).toBe('リソースが見つかりません');
    expect(antdLocale().locale).toBe('ja');
    expect(dayjs.locale()).toBe('ja');
    expect(document.documentElement.lang).toBe('ja');
    expect(window.localStorage.getItem('i18nextLng')).toBe('ja');
  });

  it.each(['zh-TW', 'fr', 'ru', 'vi'] as const)('loads %s with its texts and antd locale', async (lang) => {
    await loadLanguage(lang);
    await i18n.changeLanguage(lang);
    expect(i18n.t('header.language')).not.toBe(i18n.getFixedT('zh')('header.language'));
    expect(i18n.t('header.language')).not.toBe(i18n.getFixedT('en')('header.language'));
    expect(antdLocale().locale.toLowerCase()).toContain(lang === 'zh-TW' ? 'zh-tw' : lang);
  });
});
