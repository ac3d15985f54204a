import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en, zh } from './index';

function flatKeys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => flatKeys(child, prefix ? `${prefix}.${key}` : key));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('translations', () => {
  it('has the same keys in English as in Chinese', () => {
    expect(flatKeys(en).sort()).toEqual(flatKeys(zh).sort());
  });

  it('has no empty texts', () => {
    const texts = (tree: unknown): unknown[] =>
      typeof tree === 'object' && tree !== null ? Object.values(tree).flatMap(texts) : [tree];
    for (const text of [...texts(zh), ...texts(en)]) expect(typeof text === 'string' && text.length > 0).toBe(true);
  });

  it('defines every literal key the source code asks for', () => {
    const known = new Set(flatKeys(zh));
    const srcDir = join(import.meta.dirname, '..');
    const missing: string[] = [];
    for (const file of sourceFiles(srcDir)) {
      const text = readFileSync(file, 'utf8');
      // t('a.b') and labelKey: 'a.b' — keys with an `errors:` namespace come from the shared catalogue.
      for (const match of text.matchAll(/\bt\(\s*'([a-z_]+(?:\.[a-z_]+)+)'/g)) {
        if (!known.has(match[1])) missing.push(`${file}: ${match[1]}`);
      }
      for (const match of text.matchAll(/labelKey: '([a-z_.]+)'/g)) {
        if (!known.has(match[1])) missing.push(`${file}: ${match[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
