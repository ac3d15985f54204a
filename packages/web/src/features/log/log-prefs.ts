import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@gateway/shared';

// The family's tables share one remembered page size (the token and channel lists use the same key).
const PAGE_SIZE_KEY = 'page-size';

export function readLogPageSize(): number {
  try {
    const value = Number(window.localStorage.getItem(PAGE_SIZE_KEY));
    return (PAGE_SIZES as readonly number[]).includes(value) ? value : DEFAULT_PAGE_SIZE;
  } catch {
    return DEFAULT_PAGE_SIZE;
  }
}

export function writeLogPageSize(size: number): void {
  try {
    window.localStorage.setItem(PAGE_SIZE_KEY, String(size));
  } catch {
    // Not remembered; the table still works.
  }
}
