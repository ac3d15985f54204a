import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Language } from '@gateway/shared';
import i18next, { type TFunction } from 'i18next';

const LOCALES = resolve(import.meta.dirname, '../../src/locales');

/** What a browser of each journey language sends as its locale. */
export const BROWSER_LOCALES: Partial<Record<Language, string>> = {
  zh: 'zh-CN',
  en: 'en-US',
  fr: 'fr-FR',
  ja: 'ja-JP',
  ru: 'ru-RU',
  vi: 'vi-VN',
  'zh-TW': 'zh-TW',
};

/** One language's console texts from its locale folder, assembled as src/locales/index.ts does for the console. */
function tree(lang: Language): Record<string, unknown> {
  const folder = join(LOCALES, lang);
  const root: Record<string, unknown> = {};
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.json'))) {
    const content = JSON.parse(readFileSync(join(folder, file), 'utf8')) as Record<string, unknown>;
    if (file === 'translation.json') Object.assign(root, content);
    else root[file.slice(0, -'.json'.length).replaceAll('-', '_')] = content;
  }
  return root;
}

export interface ConsoleTexts {
  t: TFunction;
  /** A text as a whole-string pattern: the given params filled in, any other `{{param}}` standing for anything. */
  pattern(key: string, params?: Record<string, string | number>): RegExp;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The console's own words in a language, with i18next's interpolation: a journey run in several languages finds
 * buttons and checks texts by key, so a translation that changes does not break it and a missing one does.
 */
export async function consoleTexts(lang: Language): Promise<ConsoleTexts> {
  const instance = i18next.createInstance();
  await instance.init({
    lng: lang,
    resources: { [lang]: { translation: tree(lang) } },
    interpolation: { escapeValue: false },
    // A key this language lacks must fail the journey, not quietly show the key or another language.
    fallbackLng: false,
    parseMissingKeyHandler: (key) => {
      throw new Error(`no console text "${key}" in ${lang}`);
    },
  });
  const pattern = (key: string, params: Record<string, string | number> = {}) => {
    const template = instance.getResource(lang, 'translation', key) as unknown;
    if (typeof template !== 'string') throw new Error(`no console text "${key}" in ${lang}`);
    const source = template
      .split(/(\{\{\s*\w+\s*\}\})/)
      .map((part) => {
        const name = /^\{\{\s*(\w+)\s*\}\}$/.exec(part)?.[1];
        if (name === undefined) return escapeRegExp(part);
        return name in params ? escapeRegExp(String(params[name])) : '.+';
      })
      .join('');
    return new RegExp(`^${source}$`);
  };
  return { t: instance.t, pattern };
}
