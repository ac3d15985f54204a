/**
 * The languages of the console and of the server's messages. The codes are what the console stores in
 * localStorage `i18nextLng` and sends as Accept-Language, so both ends read them the same way. A language is listed
 * here once its server messages (messages/<lang>.ts) and console texts (web locales/<lang>/) are complete.
 */
// In the order the language switch lists them.
export const LANGUAGES = ['en', 'zh', 'zh-TW', 'ja', 'fr', 'ru', 'vi'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The product's language when the visitor's own is not one of ours. */
export const DEFAULT_LANGUAGE: Language = 'zh';

/** Each language named in itself, so a visitor who cannot read the current one still finds theirs. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  zh: '简体中文',
  'zh-TW': '繁體中文',
  ja: '日本語',
  fr: 'Français',
  ru: 'Русский',
  vi: 'Tiếng Việt',
};

// Traditional script: Taiwan, Hong Kong, Macau, or the script subtag itself.
const TRADITIONAL_CHINESE = /^zh-(?:hant|tw|hk|mo)(?:-|$)/;

/**
 * One BCP 47 tag (zh-HK, en-GB, fr, ja-JP, zh-Hans-CN) as one of ours, or undefined when it names a language we
 * do not have. Chinese in traditional script is zh-TW; any other Chinese is zh.
 */
export function matchLanguage(tag: string | null | undefined): Language | undefined {
  const lower = tag?.trim().toLowerCase().replaceAll('_', '-');
  if (!lower) return undefined;
  const chinese = lower === 'zh' || lower.startsWith('zh-');
  const wanted = chinese ? (TRADITIONAL_CHINESE.test(lower) ? 'zh-tw' : 'zh') : lower.split('-')[0];
  return LANGUAGES.find((lang) => lang.toLowerCase() === wanted);
}

/** The first of the visitor's languages (most preferred first) that we have; Chinese when none is. */
export function negotiateLanguage(tags: readonly string[]): Language {
  for (const tag of tags) {
    const lang = matchLanguage(tag);
    if (lang) return lang;
  }
  return DEFAULT_LANGUAGE;
}

/** An Accept-Language header's tags, most preferred first (by q, then by order); q=0 means "not this one". */
export function acceptLanguageTags(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((param) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(param)?.[1]).find((value) => value != null);
      return { tag: tag.trim(), q: q == null ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag && entry.tag !== '*' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag);
}
