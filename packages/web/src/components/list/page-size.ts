import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@gateway/shared';
import { useState } from 'react';

// Every console list shares one remembered page size, under the family's key. Storage can throw (private mode);
// then nothing is kept and the lists still work.
const PAGE_SIZE_KEY = 'page-size';

export function readPageSize(): number {
  try {
    const value = Number(window.localStorage.getItem(PAGE_SIZE_KEY));
    return (PAGE_SIZES as readonly number[]).includes(value) ? value : DEFAULT_PAGE_SIZE;
  } catch {
    return DEFAULT_PAGE_SIZE;
  }
}

export function writePageSize(size: number): void {
  try {
    window.localStorage.setItem(PAGE_SIZE_KEY, String(size));
  } catch {
    // Not remembered; the list still works.
  }
}

/** The remembered page size as state: a new size is stored for the next visit. */
export function usePageSize() {
  const [pageSize, setPageSize] = useState(readPageSize);
  const change = (size: number) => {
    writePageSize(size);
    setPageSize(size);
  };
  return [pageSize, change] as const;
}
