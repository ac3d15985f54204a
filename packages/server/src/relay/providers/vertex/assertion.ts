import { sign } from 'node:crypto';
import type { ServiceAccount } from './account.js';

/** What the token is for: every Vertex AI API (Google's scope for them). */
export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
/** Google accepts assertions valid for at most an hour. */
const ASSERTION_LIFETIME_S = 3600;

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * The JWT a service account presents to its token endpoint (OAuth 2.0 JWT bearer grant, RFC 7523): RS256 over
 * `{iss, scope, aud, iat, exp}`, the key's id in the header so Google picks the matching public key. `aud` is the
 * token endpoint the assertion is sent to.
 */
export function signAssertion(account: ServiceAccount, nowSeconds: number): string {
  const header = base64url({
    alg: 'RS256',
    typ: 'JWT',
    ...(account.privateKeyId ? { kid: account.privateKeyId } : {}),
  });
  const claims = base64url({
    iss: account.clientEmail,
    scope: CLOUD_PLATFORM_SCOPE,
    aud: account.tokenUri,
    iat: nowSeconds,
    exp: nowSeconds + ASSERTION_LIFETIME_S,
  });
  const signature = sign('sha256', Buffer.from(`${header}.${claims}`), account.signingKey).toString('base64url');
  return `${header}.${claims}.${signature}`;
}
