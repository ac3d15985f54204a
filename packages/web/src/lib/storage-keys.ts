/**
 * Every localStorage key the console reads or writes. The first block is the family's contract (spec 001 §3):
 * other tools and older consoles of this family read the same keys, so keep the names.
 */
export const STORAGE_KEYS = {
  user: 'user',
  status: 'status',
  themeMode: 'theme-mode',
  defaultCollapseSidebar: 'default_collapse_sidebar',
  mjNotifyEnabled: 'mj_notify_enabled',
  footerHtml: 'footer_html',
  chats: 'chats',
  language: 'i18nextLng',
  enableDataExport: 'enable_data_export',
  enableDrawing: 'enable_drawing',
  enableTask: 'enable_task',
  // Console-only keys.
  aff: 'aff',
  noticeDismissed: 'notice_dismissed',
} as const;

export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];
