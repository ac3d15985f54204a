import type { PublicStatus } from '@gateway/shared';
import { readJsonStorage, readStorage, writeFlag, writeStorage } from './storage';
import { STORAGE_KEYS } from './storage-keys';

/**
 * The family keeps the public status, and a few flags derived from it, in localStorage: the sidebar, the footer
 * and pages of other tools read those keys directly, and the console can paint from them before /api/status
 * answers.
 */
export function persistStatus(status: PublicStatus): void {
  writeStorage(STORAGE_KEYS.status, JSON.stringify(status));
  writeStorage(STORAGE_KEYS.footerHtml, status.footer_html ?? '');
  writeStorage(
    STORAGE_KEYS.chats,
    typeof status.chats === 'string' ? status.chats : JSON.stringify(status.chats ?? []),
  );
  writeFlag(STORAGE_KEYS.enableDataExport, Boolean(status.enable_data_export));
  writeFlag(STORAGE_KEYS.enableDrawing, Boolean(status.enable_drawing));
  writeFlag(STORAGE_KEYS.enableTask, Boolean(status.enable_task));
  writeFlag(STORAGE_KEYS.mjNotifyEnabled, Boolean(status.mj_notify_enabled));
  // The operator's default only seeds the visitor's choice; once they collapse or expand, theirs wins.
  if (readStorage(STORAGE_KEYS.defaultCollapseSidebar) === null) {
    writeFlag(STORAGE_KEYS.defaultCollapseSidebar, Boolean(status.default_collapse_sidebar));
  }
}

export function readCachedStatus(): PublicStatus | null {
  return readJsonStorage<PublicStatus>(STORAGE_KEYS.status);
}

/** Tab title and favicon follow the operator's system name and logo. */
export function applyBranding(status: Pick<PublicStatus, 'system_name' | 'logo'>): void {
  if (status.system_name) document.title = status.system_name;
  if (!status.logo) return;
  let link = document.querySelector<HTMLLinkElement>('link[rel~="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.appendChild(link);
  }
  link.removeAttribute('type');
  link.href = status.logo;
}
