import { createHmac } from 'node:crypto';

/** Tokens are issued for a day and replaced ten minutes before they expire. */
const LIFETIME_MS = 24 * 3600_000;
const RENEW_BEFORE_MS = 10 * 60_000;

const cache = new Map<string, { token: string; expiresAt: number }>();

const base64url = (text: string) => Buffer.from(text).toString('base64url');

/**
 * The JWT Zhipu's legacy API takes for a key `id.secret`: HS256 over `{api_key, exp, timestamp}` (both in
 * milliseconds) with the header's `sign_type: SIGN`, signed with the secret. Empty for a key of another shape (the
 * upstream then refuses it, which says more than a local error would).
 */
export function signZhipuToken(key: string, now: number): string {
  const dot = key.indexOf('.');
  if (dot <= 0 || dot === key.length - 1) return '';
  const header = base64url(JSON.stringify({ alg: 'HS256', sign_type: 'SIGN' }));
  const payload = base64url(JSON.stringify({ api_key: key.slice(0, dot), exp: now + LIFETIME_MS, timestamp: now }));
  const signature = createHmac('sha256', key.slice(dot + 1))
    .update(`${header}.${payload}`)
    .digest('base64url');
  return `${header}.${payload}.${signature}`;
}

/** The channel key's token, signed once and reused until shortly before it expires. */
export function zhipuToken(key: string, now = Date.now()): string {
  const cached = cache.get(key);
  if (cached && now < cached.expiresAt - RENEW_BEFORE_MS) return cached.token;
  const token = signZhipuToken(key, now);
  cache.set(key, { token, expiresAt: now + LIFETIME_MS });
  return token;
}
