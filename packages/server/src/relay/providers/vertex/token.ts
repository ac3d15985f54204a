import { sendUpstream, type UpstreamResponse } from '../../send.js';
import { wholeResponse } from '../refusal-in-body.js';
import type { ServiceAccount } from './account.js';
import { signAssertion } from './assertion.js';
import { keyRefusal } from './errors.js';

const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** Google's tokens live an hour; a new one is fetched in the background during the last five minutes. */
const RENEW_BEFORE_MS = 5 * 60_000;
/** A token this close to its end is not sent any more: the request could outlive it. */
const USABLE_UNTIL_MS = 30_000;

interface Held {
  token: string;
  expiresAt: number;
}

/** The token endpoint's words when it gave no token (never the assertion or the key). */
interface Refused {
  refusal: string;
}

const held = new Map<string, Held>();
/** One token request in flight per key, however many requests wait for it. */
const inFlight = new Map<string, Promise<Held | Refused>>();

function refusalOf(statusCode: number, text: string): Refused {
  try {
    const body = JSON.parse(text) as { error?: unknown; error_description?: unknown };
    // Google's OAuth errors: `{"error":"invalid_grant","error_description":"Invalid JWT Signature."}`.
    if (typeof body.error === 'string') {
      const description = typeof body.error_description === 'string' ? `: ${body.error_description}` : '';
      return { refusal: `${body.error}${description}` };
    }
  } catch {
    // not JSON: the status says enough
  }
  return { refusal: `HTTP ${statusCode}` };
}

async function requestToken(account: ServiceAccount, timeoutMs: number): Promise<Held | Refused> {
  const now = Date.now();
  const form = new URLSearchParams({
    grant_type: JWT_BEARER_GRANT,
    assertion: signAssertion(account, Math.floor(now / 1000)),
  });
  const response = await sendUpstream(
    {
      method: 'POST',
      url: account.tokenUri,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
    },
    { timeoutMs },
  );
  const text = await response.body.text();
  let answer: { access_token?: unknown; expires_in?: unknown } = {};
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    // refused below
  }
  if (response.statusCode !== 200 || typeof answer.access_token !== 'string' || !answer.access_token) {
    return refusalOf(response.statusCode, text);
  }
  const lifetime = typeof answer.expires_in === 'number' ? answer.expires_in : 3599;
  return { token: answer.access_token, expiresAt: now + lifetime * 1000 };
}

function fetchToken(account: ServiceAccount, cacheKey: string, timeoutMs: number): Promise<Held | Refused> {
  let pending = inFlight.get(cacheKey);
  if (!pending) {
    pending = requestToken(account, timeoutMs)
      .then((result) => {
        if ('token' in result) held.set(cacheKey, result);
        return result;
      })
      .finally(() => inFlight.delete(cacheKey));
    inFlight.set(cacheKey, pending);
  }
  return pending;
}

/**
 * An OAuth access token for the service account (`cacheKey`: the channel key it was read from), cached until
 * shortly before it expires; or the token endpoint's refusal as a 401 answer for the conveyor, so the channel's
 * credentials are what fails (and may be disabled), not the caller's request.
 */
export async function vertexAccessToken(
  account: ServiceAccount,
  cacheKey: string,
  timeoutMs: number,
): Promise<string | UpstreamResponse> {
  const current = held.get(cacheKey);
  const now = Date.now();
  if (current && now < current.expiresAt - USABLE_UNTIL_MS) {
    if (now >= current.expiresAt - RENEW_BEFORE_MS) fetchToken(account, cacheKey, timeoutMs).catch(() => {});
    return current.token;
  }
  const result = await fetchToken(account, cacheKey, timeoutMs);
  if ('token' in result) return result.token;
  return wholeResponse(401, keyRefusal(`the token endpoint refused the Vertex AI service account (${result.refusal})`));
}

/** A token the upstream no longer accepts (revoked, or expired early) is dropped, so the next call fetches one. */
export function forgetVertexToken(cacheKey: string): void {
  held.delete(cacheKey);
}
