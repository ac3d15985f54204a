import { LANGUAGES, type Language } from '@gateway/shared';

type Tree = Record<string, unknown>;

/**
 * Translations, one folder per language (zh, en, zh-TW, ja, fr, ru, vi): `translation.json` holds the shell's
 * texts; every other `<section>.json` in the folder becomes the `<section>` key. One file per feature lets features
 * add texts without editing a shared file.
 */
const files = import.meta.glob<Tree>('./*/*.json', { eager: true, import: 'default' });

function build(lang: Language): Tree {
  const root = files[`./${lang}/translation.json`];
  if (!root) throw new Error(`locales/${lang}/translation.json is missing`);
  const tree: Tree = { ...root };
  for (const [path, content] of Object.entries(files)) {
    const match = /^\.\/([\w-]+)\/([\w-]+)\.json$/.exec(path);
    if (!match || match[1] !== lang || match[2] === 'translation') continue;
    const section = match[2]!.replaceAll('-', '_');
    if (section in tree) throw new Error(`locales/${lang}/${match[2]}.json collides with an existing section`);
    tree[section] = content;
  }
  return tree;
}

/** The console's texts of every listed language; a folder whose language is not listed yet is left out. */
export const LOCALES = Object.fromEntries(LANGUAGES.map((lang) => [lang, build(lang)])) as Record<Language, Tree>;
export const { zh, en } = LOCALES;
