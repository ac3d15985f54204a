import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A JSON value carried by the browser and signed with SESSION_SECRET (`<base64url JSON>.<HMAC>`), so any node can
 * check it without a table. `purpose` goes into the HMAC: a value signed for one use is no good for another.
 */
export function signPayload(value: unknown, purpose: string, secret: string): string {
  const payload = Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${payload}.${mac(payload, purpose, secret)}`;
}

/** The value when the signature holds (compared in constant time); null otherwise. The caller checks its shape. */
export function readSignedPayload(token: string | undefined, purpose: string, secret: string): unknown {
  if (!token) return null;
  const dot = token.lastIndexOf('.');
  if (dot <= 0) return null;
  const payload = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(mac(payload, purpose, secret));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown;
  } catch {
    return null;
  }
}

function mac(payload: string, purpose: string, secret: string): string {
  return createHmac('sha256', secret).update(`${purpose}:${payload}`).digest('base64url');
}
