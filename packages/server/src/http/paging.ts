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

/**
 * A list page for the token and channel lists, which two generations of the family answer differently: today's
 * new-api pages with `p` from 1 and answers `{items, total, page, page_size}`; its servers of the spec's era counted
 * `p` from 0 and answered the bare array their console splices into its table (API_LIST_SHAPE=array, or
 * `shape=array` on the request).
 */
export function readListPage(query: Record<string, unknown>, serverDefault: 'page' | 'array') {
  // A caller may ask for either shape with `shape=page|array`; the server's default answers everyone else.
  const shape = query.shape === 'page' || query.shape === 'array' ? query.shape : serverDefault;
  const paging = readPaging(query);
  const zeroBased = shape === 'array' ? Math.max(0, Number.parseInt(String(query.p ?? '0'), 10) || 0) : null;
  const offset = zeroBased === null ? paging.offset : zeroBased * paging.pageSize;
  return {
    offset,
    pageSize: paging.pageSize,
    answer: <T>(items: T[], total: number) =>
      shape === 'array' ? items : { items, total, page: paging.page, page_size: paging.pageSize },
  };
}

// NUL and the other control characters: SQLite cuts a LIKE pattern at a NUL (so "a\0b" searched like "a", widening
// the match) and PostgreSQL refuses them outright. No name, key or model contains one, so they are dropped.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point here.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/**
 * A whole-number filter from the query string (an id, a type, a unix time), or undefined: the family reads a number
 * it cannot parse as 0, which means "no filter", so empty, negative, fractional or unreadable values filter nothing.
 */
export function queryNumber(query: Record<string, unknown>, name: string): number | undefined {
  const raw = queryString(query, name);
  if (!/^\d+$/.test(raw)) return undefined;
  const value = Number(raw);
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/** A search keyword or filter from the query string, trimmed and without control characters. */
export function queryString(query: Record<string, unknown>, name: string): string {
  const value = query[name];
  return typeof value === 'string' ? value.replace(CONTROL_CHARACTERS, '').trim() : '';
}
