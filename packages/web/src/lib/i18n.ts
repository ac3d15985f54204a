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
import i18n from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { LOCALES } from '../locales/index';
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
    resources: Object.fromEntries(
      LANGUAGES.map((lang) => [lang, { translation: LOCALES[lang], errors: serverMessages(lang) }]),
    ),
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

/** One of our languages, whatever regional variant (zh-CN, en-US) the detector saw. */
export function currentLanguage(): Language {
  return matchLanguage(i18n.resolvedLanguage ?? i18n.language) ?? DEFAULT_LANGUAGE;
}

/** The visitor picked a language: show it and remember it (localStorage i18nextLng, the family's key). */
export async function chooseLanguage(lang: Language): Promise<void> {
  writeStorage(STORAGE_KEYS.language, lang);
  await i18n.changeLanguage(lang);
}

export default i18n;
