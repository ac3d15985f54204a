import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readSignedPayload, signPayload } from '../../security/signed-payload.js';

/**
 * One sign-in or binding attempt through a redirect provider, from the moment the console asks for a state until
 * the provider sends the browser back. It travels in an HttpOnly cookie signed with the session secret rather than
 * in a table: every node that shares the secret can check it, and it belongs to the one browser that started it,
 * which is what makes the `state` a defence against forged callbacks.
 */
export const FLOW_COOKIE = 'oauth_flow';
export const FLOW_COOKIE_PATH = '/api/oauth';
export const FLOW_TTL_SECONDS = 600;

export type RedirectProviderName = 'github' | 'oidc' | 'linuxdo';
export type FlowIntent = 'login' | 'bind';

export interface OAuthFlow {
  state: string;
  /**
   * Null for a state from the family's provider-neutral `GET /api/oauth/state`; `custom:<id>` for a provider the
   * root added (its id, not its slug: a slug can be renamed in between).
   */
  provider: RedirectProviderName | `custom:${number}` | null;
  intent: FlowIntent;
  /** The account to bind to (intent bind), else 0. */
  userId: number;
  /** Invite code for a registration that may follow. */
  aff: string;
  /** PKCE code verifier; empty when the authorisation request carried no challenge. */
  verifier: string;
  /** OIDC nonce echoed in the ID token; empty when none was sent. */
  nonce: string;
  /** The redirect_uri sent with the authorisation request: the token request must repeat it exactly. */
  redirectUri: string;
  expiresAt: number;
}

export function randomToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}

/** RFC 7636 S256: the challenge is the base64url SHA-256 of the verifier. */
export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

const FLOW_PURPOSE = 'oauth-flow';

export function encodeFlow(flow: OAuthFlow, secret: string): string {
  return signPayload(flow, FLOW_PURPOSE, secret);
}

/** The flow in the cookie when its signature holds and it has not expired; null otherwise. */
export function decodeFlow(value: string | undefined, secret: string, now: number): OAuthFlow | null {
  const flow = readSignedPayload(value, FLOW_PURPOSE, secret) as OAuthFlow | null;
  if (!flow || typeof flow.state !== 'string' || typeof flow.expiresAt !== 'number' || flow.expiresAt < now) {
    return null;
  }
  return flow;
}

/** Constant-time comparison of the state the provider echoed with the one this browser was given. */
export function stateMatches(flow: OAuthFlow, given: string): boolean {
  const a = Buffer.from(flow.state);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
