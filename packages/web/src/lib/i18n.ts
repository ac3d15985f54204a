import { type Language, MESSAGES } from '@gateway/shared';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import i18n from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { en, zh } from '../locales/index';
import { STORAGE_KEYS } from './storage-keys';

export const SUPPORTED_LANGUAGES: readonly Language[] = ['zh', 'en'];

/**
 * The server's message catalogue becomes the `errors` namespace, so a validation message shown before a request
 * reads exactly like the one the server would send back. `{name}` placeholders become i18next's `{{name}}`.
 */
function serverMessages(lang: Language): Record<string, string> {
  return Object.fromEntries(
    Object.entries(MESSAGES).map(([code, texts]) => [code, texts[lang].replace(/\{(\w+)\}/g, '{{$1}}')]),
  );
}

void i18n
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    resources: {
      zh: { translation: zh, errors: serverMessages('zh') },
      en: { translation: en, errors: serverMessages('en') },
    },
    ns: ['translation', 'errors'],
    defaultNS: 'translation',
    // Chinese unless the visitor chose otherwise (stored) or a link asks for it (?lng=en): the product's default
    // language is Chinese, so the browser's language is deliberately not consulted.
    fallbackLng: 'zh',
    supportedLngs: SUPPORTED_LANGUAGES,
    nonExplicitSupportedLngs: true,
    load: 'languageOnly',
    detection: {
      order: ['querystring', 'localStorage'],
      lookupQuerystring: 'lng',
      lookupLocalStorage: STORAGE_KEYS.language,
      caches: ['localStorage'],
    },
    interpolation: { escapeValue: false },
    initAsync: false,
  });

function applyLanguage(): void {
  const lang = currentLanguage();
  dayjs.locale(lang === 'zh' ? 'zh-cn' : 'en');
  document.documentElement.lang = lang;
}

i18n.on('languageChanged', applyLanguage);
applyLanguage();

/** zh or en, whatever regional variant (zh-CN, en-US) the detector stored. */
export function currentLanguage(): Language {
  const lang = i18n.resolvedLanguage ?? i18n.language ?? 'zh';
  return lang.startsWith('en') ? 'en' : 'zh';
}

export default i18n;
