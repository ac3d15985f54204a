import enRoot from './en/translation.json';
import zhRoot from './zh/translation.json';

type Tree = Record<string, unknown>;

/**
 * Translations: `translation.json` holds the shell's texts; every other `<section>.json` in the language folder
 * becomes the `<section>` key. One file per feature lets features add texts without editing a shared file.
 */
const sections = import.meta.glob<Tree>('./*/*.json', { eager: true, import: 'default' });

function build(lang: 'zh' | 'en', root: Tree): Tree {
  const tree: Tree = { ...root };
  for (const [path, content] of Object.entries(sections)) {
    const match = /^\.\/(\w+)\/([\w-]+)\.json$/.exec(path);
    if (!match || match[1] !== lang || match[2] === 'translation') continue;
    const section = match[2]!.replaceAll('-', '_');
    if (section in tree) throw new Error(`locales/${lang}/${match[2]}.json collides with an existing section`);
    tree[section] = content;
  }
  return tree;
}

export const zh = build('zh', zhRoot);
export const en = build('en', enRoot);
