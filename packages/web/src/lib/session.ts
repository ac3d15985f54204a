import type { SessionUser } from '@gateway/shared';
import { useSyncExternalStore } from 'react';
import { readJsonStorage, removeStorage, writeStorage } from './storage';
import { STORAGE_KEYS } from './storage-keys';

/**
 * The signed-in user lives in localStorage (`user`), as in every console of this family. This small store makes
 * changes to it (login, logout, a 401 anywhere, another tab) re-render whoever shows or guards on it.
 */
type Listener = () => void;
const listeners = new Set<Listener>();
let cached: SessionUser | null | undefined;

function load(): SessionUser | null {
  const stored = readJsonStorage<SessionUser>(STORAGE_KEYS.user);
  return stored && typeof stored.id === 'number' ? stored : null;
}

function emit(): void {
  cached = undefined;
  for (const listener of listeners) listener();
}

export function getStoredUser(): SessionUser | null {
  if (cached === undefined) cached = load();
  return cached;
}

export function setStoredUser(user: SessionUser): void {
  writeStorage(STORAGE_KEYS.user, JSON.stringify(user));
  emit();
}

export function clearStoredUser(): void {
  removeStorage(STORAGE_KEYS.user);
  emit();
}

// Set when the server ended the session (a 401), so every route that then sends the visitor to sign in says why;
// cleared by the next sign-in. Session storage: it belongs to this tab's visit only.
const EXPIRED_FLAG = 'session_expired';

export function markSessionExpired(): void {
  window.sessionStorage.setItem(EXPIRED_FLAG, '1');
}

export function sessionExpired(): boolean {
  return window.sessionStorage.getItem(EXPIRED_FLAG) === '1';
}

export function clearSessionExpired(): void {
  window.sessionStorage.removeItem(EXPIRED_FLAG);
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === STORAGE_KEYS.user) emit();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useSessionUser(): SessionUser | null {
  return useSyncExternalStore(subscribe, getStoredUser, () => null);
}
