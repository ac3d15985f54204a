import {
  DEFAULT_LANGUAGE,
  LANGUAGES,
  type Language,
  MESSAGES,
  type MessageCode,
  matchLanguage,
  messageTemplate,
} from '@gateway/shared';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/vi';
import 'dayjs/locale/ru';
import 'dayjs/locale/fr';
import 'dayjs/locale/ja';
import 'dayjs/locale/zh-tw';
import type { ConfigProviderProps } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import i18n from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { en, loadLocale, zh } from '../locales/index';
import { writeStorage } from './storage';
import { STORAGE_KEYS } from './storage-keys';

export const SUPPORTED_LANGUAGES: readonly Language[] = LANGUAGES;

/** dayjs's name for each language (its locale is imported above). */
const DAYJS_LOCALES: Record<Language, string> = {
  zh: 'zh-cn',
  en: 'en',
  'zh-TW': 'zh-tw',
  ja: 'ja',
  fr: 'fr',
  ru: 'ru',
  vi: 'vi',
};

type AntdLocale = NonNullable<ConfigProviderProps['locale']>;

/** antd's own texts (pagination, pickers, empty states, confirm buttons): zh and en ship, the others load with theirs. */
const ANTD_LOCALES: Record<Language, () => Promise<AntdLocale>> = {
  zh: async () => zhCN,
  en: async () => enUS,
  'zh-TW': () => import('antd/locale/zh_TW').then((module) => module.default),
  ja: () => import('antd/locale/ja_JP').then((module) => module.default),
  fr: () => import('antd/locale/fr_FR').then((module) => module.default),
  ru: () => import('antd/locale/ru_RU').then((module) => module.default),
  vi: () => import('antd/locale/vi_VN').then((module) => module.default),
};
const antdLocales = new Map<Language, AntdLocale>([
  ['zh', zhCN],
  ['en', enUS],
]);

/**
 * The server's message catalogue becomes the `errors` namespace, so a validation message shown before a request
 * reads exactly like the one the server would send back. `{name}` placeholders become i18next's `{{name}}`.
 */
function serverMessages(lang: Language): Record<string, string> {
  return Object.fromEntries(
    (Object.keys(MESSAGES) as MessageCode[]).map((code) => [
      code,
      messageTemplate(code, lang).replace(/\{(\w+)\}/g, '{{$1}}'),
    ]),
  );
}

// A link may ask for a language (?lng=en): that counts as a choice and is remembered like one.
const linked = matchLanguage(new URLSearchParams(window.location.search).get('lng'));
if (linked) writeStorage(STORAGE_KEYS.language, linked);

void i18n
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    // Chinese and English ship with the console; another language is added by loadLanguage before it is shown.
    resources: {
      zh: { translation: zh, errors: serverMessages('zh') },
      en: { translation: en, errors: serverMessages('en') },
    },
    partialBundledLanguages: true,
    ns: ['translation', 'errors'],
    defaultNS: 'translation',
    // The order of preference: a language asked for by a link (?lng=), the visitor's stored choice, then the
    // browser's languages (navigator.languages, most preferred first); Chinese, the product's default, when none
    // of those is one of ours. Each detected tag is read as one of ours (zh-HK → zh-TW, en-GB → en, ...).
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: LANGUAGES,
    nonExplicitSupportedLngs: false,
    load: 'currentOnly',
    detection: {
      order: ['querystring', 'localStorage', 'navigator'],
      lookupQuerystring: 'lng',
      lookupLocalStorage: STORAGE_KEYS.language,
      convertDetectedLanguage: (tag: string) => matchLanguage(tag) ?? tag,
      // Only a choice is remembered (chooseLanguage); what the browser says is asked again on every visit.
      caches: [],
    },
    interpolation: { escapeValue: false },
    initAsync: false,
  });

function applyLanguage(): void {
  const lang = currentLanguage();
  dayjs.locale(DAYJS_LOCALES[lang]);
  document.documentElement.lang = lang;
}

i18n.on('languageChanged', applyLanguage);
applyLanguage();

/**
 * One of our languages, whatever regional variant (zh-CN, en-US) the detector saw. The chosen language, not the one
 * whose texts are on screen: while a language is still loading, those are the fallback's.
 */
export function currentLanguage(): Language {
  return matchLanguage(i18n.language ?? i18n.resolvedLanguage) ?? DEFAULT_LANGUAGE;
}

/** antd's locale for the current language (loaded with it). */
export function antdLocale(): AntdLocale {
  return antdLocales.get(currentLanguage()) ?? zhCN;
}

const loading = new Map<Language, Promise<void>>();

/** Fetches a language's console texts and antd's locale once, and hands them to i18next. */
export function loadLanguage(lang: Language): Promise<void> {
  if (antdLocales.has(lang)) return Promise.resolve();
  let promise = loading.get(lang);
  if (!promise) {
    promise = Promise.all([loadLocale(lang), ANTD_LOCALES[lang]()]).then(([tree, antd]) => {
      i18n.addResourceBundle(lang, 'translation', tree, true, true);
      i18n.addResourceBundle(lang, 'errors', serverMessages(lang), true, true);
      antdLocales.set(lang, antd);
    });
    // A failed fetch (offline for a moment) may be tried again.
    promise.catch(() => loading.delete(lang));
    loading.set(lang, promise);
  }
  return promise;
}

/**
 * Settles once the detected language's texts are there (at once for zh and en): the console renders after it, so a
 * visitor reading Japanese never sees a flash of Chinese. A language that fails to load leaves the fallback on screen.
 */
export const i18nReady: Promise<void> = loadLanguage(currentLanguage()).then(
  () => void i18n.changeLanguage(currentLanguage()),
  () => undefined,
);

/** The visitor picked a language: show it and remember it (localStorage i18nextLng, the family's key). */
export async function chooseLanguage(lang: Language): Promise<void> {
  await loadLanguage(lang);
  writeStorage(STORAGE_KEYS.language, lang);
  await i18n.changeLanguage(lang);
}

export default i18n;
