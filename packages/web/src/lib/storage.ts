import type { StorageKey } from './storage-keys';

// Storage can throw (private mode, quota, disabled cookies); the console must keep working without it.

export function readStorage(key: StorageKey): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(key: StorageKey, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Nothing sensible to do: the value simply is not remembered.
  }
}

export function removeStorage(key: StorageKey): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // See writeStorage.
  }
}

export function readJsonStorage<T>(key: StorageKey): T | null {
  const raw = readStorage(key);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

/** Booleans are stored as the strings 'true' and 'false' (family convention). */
export function readFlag(key: StorageKey): boolean {
  return readStorage(key) === 'true';
}

export function writeFlag(key: StorageKey, value: boolean): void {
  writeStorage(key, value ? 'true' : 'false');
}
