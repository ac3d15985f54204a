import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '@gateway/shared';

/**
 * Family paging: `p` (also `page`), 1-based (0 is read as 1 for old clients), and `page_size` (also `ps`, `size`).
 */
export function readPaging(query: Record<string, unknown>): { page: number; pageSize: number; offset: number } {
  const pick = (...names: string[]) => {
    for (const name of names) {
      const value = Number(query[name]);
      if (Number.isInteger(value)) return value;
    }
    return undefined;
  };
  const page = Math.max(1, pick('p', 'page') ?? 1);
  const pageSize = Math.min(MAX_PAGE_SIZE, Math.max(1, pick('page_size', 'ps', 'size') ?? DEFAULT_PAGE_SIZE));
  return { page, pageSize, offset: (page - 1) * pageSize };
}

// NUL and the other control characters: SQLite cuts a LIKE pattern at a NUL (so "a\0b" searched like "a", widening
// the match) and PostgreSQL refuses them outright. No name, key or model contains one, so they are dropped.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point here.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/** A search keyword or filter from the query string, trimmed and without control characters. */
export function queryString(query: Record<string, unknown>, name: string): string {
  const value = query[name];
  return typeof value === 'string' ? value.replace(CONTROL_CHARACTERS, '').trim() : '';
}
