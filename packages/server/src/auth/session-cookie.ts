import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'session';

/** The cookie holds `<random id>.<HMAC of the id>`: unguessable, and a forged id is rejected before any lookup. */
export function newSessionId(): string {
  return randomBytes(24).toString('base64url');
}

export function signSessionId(id: string, secret: string): string {
  return `${id}.${mac(id, secret)}`;
}

export function verifySessionCookie(value: string | undefined, secret: string): string | null {
  if (!value) return null;
  const dot = value.lastIndexOf('.');
  if (dot <= 0) return null;
  const id = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1));
  const expected = Buffer.from(mac(id, secret));
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}

function mac(id: string, secret: string): string {
  return createHmac('sha256', secret).update(`session:${id}`).digest('base64url');
}
