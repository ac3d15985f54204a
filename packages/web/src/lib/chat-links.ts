import type { PublicStatus } from '@gateway/shared';

/** One entry of the operator's `Chats` option: a display name and a link template with {key} and {address}. */
export interface ChatLink {
  name: string;
  template: string;
}

export type ChatLinks = { ok: true; links: ChatLink[] } | { ok: false };

/**
 * `Chats` is a JSON array of single-entry objects, `[{"NextChat": "https://…?key={key}&url={address}"}]`. The
 * status may carry it parsed or as text; anything else is a configuration error the admin has to fix.
 */
export function parseChatLinks(raw: unknown): ChatLinks {
  let value = raw;
  if (value === undefined || value === null || value === '') return { ok: true, links: [] };
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return { ok: false };
    }
  }
  if (!Array.isArray(value)) return { ok: false };
  const links: ChatLink[] = [];
  for (const item of value) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return { ok: false };
    const [entry] = Object.entries(item as Record<string, unknown>);
    if (!entry || typeof entry[1] !== 'string' || entry[1].trim() === '') return { ok: false };
    links.push({ name: entry[0], template: entry[1].trim() });
  }
  return { ok: true, links };
}

/** Where clients reach this gateway: the operator's server address, else the console's own origin. */
export function chatServerAddress(status: Partial<Pick<PublicStatus, 'server_address'>>): string {
  return status.server_address?.trim() || window.location.origin;
}

/** Fills a template for one token: {key} → sk-…, {address} → the URL-encoded server address (family rule). */
export function buildChatLink(template: string, key: string, address: string): string {
  const fullKey = key.startsWith('sk-') ? key : `sk-${key}`;
  return template.replaceAll('{address}', encodeURIComponent(address)).replaceAll('{key}', fullKey);
}
