import type { Language } from '@gateway/shared';

type Tree = Record<string, unknown>;
type Files = Record<string, Tree>;

/**
 * Translations, one folder per language (zh, en, zh-TW, ja, fr, ru, vi): `translation.json` holds the shell's
 * texts; every other `<section>.json` in the folder becomes the `<section>` key. One file per feature lets features
 * add texts without editing a shared file. Each folder's index.ts gathers its files, so a language loads as one
 * piece: Chinese and English ship with the console, the others are fetched when a visitor picks one.
 */
const bundled = import.meta.glob<Files>(['./zh/index.ts', './en/index.ts'], { eager: true, import: 'default' });
const fetched = import.meta.glob<Files>(['./*/index.ts', '!./zh/index.ts', '!./en/index.ts'], { import: 'default' });

function build(lang: Language, files: Files): Tree {
  const root = files['./translation.json'];
  if (!root) throw new Error(`locales/${lang}/translation.json is missing`);
  const tree: Tree = { ...root };
  for (const [path, content] of Object.entries(files)) {
    const section = /^\.\/([\w-]+)\.json$/.exec(path)?.[1];
    if (!section || section === 'translation') continue;
    const key = section.replaceAll('-', '_');
    if (key in tree) throw new Error(`locales/${lang}/${section}.json collides with an existing section`);
    tree[key] = content;
  }
  return tree;
}

const indexOf = (lang: Language) => `./${lang}/index.ts`;

/** The texts that ship with the console, there before the first render. */
export const zh = build('zh', bundled[indexOf('zh')] ?? {});
export const en = build('en', bundled[indexOf('en')] ?? {});

/** Any language's texts: the bundled ones at once, the others fetched as one chunk each. */
export async function loadLocale(lang: Language): Promise<Tree> {
  if (lang === 'zh') return zh;
  if (lang === 'en') return en;
  const load = fetched[indexOf(lang)];
  if (!load) throw new Error(`locales/${lang}/index.ts is missing`);
  return build(lang, await load());
}
