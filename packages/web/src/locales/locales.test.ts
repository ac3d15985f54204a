import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGES, type Language } from '@gateway/shared';
import { describe, expect, it } from 'vitest';
import { loadLocale } from './index';

function flatten(value: unknown, prefix = ''): Array<[string, unknown]> {
  if (typeof value !== 'object' || value === null) return [[prefix, value]];
  return Object.entries(value).flatMap(([key, child]) => flatten(child, prefix ? `${prefix}.${key}` : key));
}

const flatKeys = (value: unknown) => flatten(value).map(([key]) => key);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

// i18next's {{name}} (and {{name, format}}), $t(key) nesting, and literal {name}/<tag> that the code fills itself.
function placeholders(text: string): string[] {
  const found = text.match(/\{\{[^}]+\}\}|\$t\([^)]*\)|\{\w+\}|<\/?\d+>/g) ?? [];
  return [...new Set(found)].sort();
}

const LOCALES = Object.fromEntries(
  await Promise.all(LANGUAGES.map(async (lang) => [lang, await loadLocale(lang)] as const)),
) as Record<Language, Record<string, unknown>>;
const reference = new Map(flatten(LOCALES.zh));
const english = new Map(flatten(LOCALES.en));

// Texts whose wording needs other values: Chinese prices a discount in tenths ({{value}}折 = 9折), other languages in
// percent off ({{percent}}% off). The code passes both; a translation follows either the Chinese or the English.
const EITHER_SOURCE = new Set(['wallet.discount']);

function keepsPlaceholders(key: string, text: unknown): boolean {
  const own = placeholders(String(text)).join();
  if (own === placeholders(String(english.get(key))).join()) return true;
  return EITHER_SOURCE.has(key) && own === placeholders(String(reference.get(key))).join();
}

describe('translations', () => {
  it('lists a folder of texts for every language and a language for every folder', () => {
    const folders = readdirSync(import.meta.dirname).filter((name) =>
      statSync(join(import.meta.dirname, name)).isDirectory(),
    );
    expect(folders.sort()).toEqual([...LANGUAGES].sort());
    // Each folder gathers its files in an index.ts, so the language loads as one piece.
    for (const folder of folders) expect(statSync(join(import.meta.dirname, folder, 'index.ts')).isFile()).toBe(true);
  });

  it.each(LANGUAGES)('%s has exactly the keys of Chinese, none missing, none extra', (lang) => {
    const keys = new Set(flatKeys(LOCALES[lang]));
    const missing = [...reference.keys()].filter((key) => !keys.has(key));
    const extra = [...keys].filter((key) => !reference.has(key));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
  });

  it.each(LANGUAGES)('%s has no empty text', (lang) => {
    const empty = flatten(LOCALES[lang])
      .filter(([, text]) => typeof text !== 'string' || text.trim() === '')
      .map(([key]) => key);
    expect(empty).toEqual([]);
  });

  it.each(LANGUAGES)('%s keeps the placeholders of the English text', (lang) => {
    const differing = flatten(LOCALES[lang])
      .filter(([key, text]) => !keepsPlaceholders(key, text))
      .map(([key, text]) => `${key}: ${text}`);
    expect(differing).toEqual([]);
  });

  it('defines every literal key the source code asks for', () => {
    const known = new Set(reference.keys());
    const srcDir = join(import.meta.dirname, '..');
    const missing: string[] = [];
    for (const file of sourceFiles(srcDir)) {
      const text = readFileSync(file, 'utf8');
      // t('a.b') and labelKey: 'a.b' — keys with an `errors:` namespace come from the shared catalogue.
      for (const match of text.matchAll(/\bt\(\s*'([a-z_]+(?:\.[a-z_]+)+)'/g)) {
        if (!known.has(match[1]!)) missing.push(`${file}: ${match[1]}`);
      }
      for (const match of text.matchAll(/labelKey: '([a-z_.]+)'/g)) {
        if (!known.has(match[1]!)) missing.push(`${file}: ${match[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
