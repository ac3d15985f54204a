// Console-only preferences of the channel list (its page size is the one every list shares, components/list).
// Storage can throw (private mode); then nothing is remembered.
const KEYS = {
  idSort: 'id-sort',
  tagMode: 'tag-mode',
  columns: 'channel-columns',
} as const;

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Not remembered; the page still works.
  }
}

export const readIdSort = () => read(KEYS.idSort) === 'true';
export const writeIdSort = (on: boolean) => write(KEYS.idSort, String(on));
export const readTagMode = () => read(KEYS.tagMode) === 'true';
export const writeTagMode = (on: boolean) => write(KEYS.tagMode, String(on));

/** Hidden column keys. */
export function readHiddenColumns(): string[] {
  try {
    const value: unknown = JSON.parse(read(KEYS.columns) ?? '[]');
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

export const writeHiddenColumns = (keys: string[]) => write(KEYS.columns, JSON.stringify(keys));
