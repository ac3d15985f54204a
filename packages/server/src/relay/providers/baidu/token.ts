import { sendUpstream, type UpstreamResponse } from '../../send.js';
import type { RuntimeChannel } from '../../types.js';
import { wholeResponse } from '../refusal-in-body.js';

/** Access tokens live 30 days; one is replaced in the background during its last day, while it still works. */
const RENEW_BEFORE_MS = 24 * 3600_000;

interface Held {
  token: string;
  expiresAt: number;
}

const held = new Map<string, Held>();
/** One token request in flight per key and base URL, however many requests wait for it. */
const inFlight = new Map<string, Promise<Held | Refused>>();

/** The token endpoint's answer when it gave no token. */
interface Refused {
  refusal: string;
}

export function baiduBase(channel: RuntimeChannel): string {
  return channel.baseUrl || 'https://aip.baidubce.com';
}

async function requestToken(channel: RuntimeChannel, timeoutMs: number): Promise<Held | Refused> {
  const [clientId = '', clientSecret = ''] = channel.key.split('|');
  const query = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: clientSecret,
  });
  const response = await sendUpstream(
    {
      method: 'POST',
      url: `${baiduBase(channel)}/oauth/2.0/token?${query}`,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
    },
    { timeoutMs },
  );
  const text = await response.body.text();
  let answer: { access_token?: string; expires_in?: number } = {};
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    // refused below
  }
  if (response.statusCode !== 200 || !answer.access_token) return { refusal: text };
  return { token: answer.access_token, expiresAt: Date.now() + (answer.expires_in ?? 0) * 1000 };
}

function fetchToken(channel: RuntimeChannel, cacheKey: string, timeoutMs: number): Promise<Held | Refused> {
  let pending = inFlight.get(cacheKey);
  if (!pending) {
    pending = requestToken(channel, timeoutMs)
      .then((result) => {
        if ('token' in result) held.set(cacheKey, result);
        return result;
      })
      .finally(() => inFlight.delete(cacheKey));
    inFlight.set(cacheKey, pending);
  }
  return pending;
}

/** The channel key's access token (cached), or the token endpoint's refusal as an answer for the conveyor. */
export async function baiduAccessToken(channel: RuntimeChannel, timeoutMs: number): Promise<string | UpstreamResponse> {
  const cacheKey = `${baiduBase(channel)}\n${channel.key}`;
  const current = held.get(cacheKey);
  const now = Date.now();
  if (current && now < current.expiresAt) {
    if (now >= current.expiresAt - RENEW_BEFORE_MS) fetchToken(channel, cacheKey, timeoutMs).catch(() => {});
    return current.token;
  }
  const result = await fetchToken(channel, cacheKey, timeoutMs);
  // A refused API key or secret (`invalid_client`) is the channel's credentials failing: 401, so it can be disabled.
  return 'token' in result ? result.token : wholeResponse(401, result.refusal);
}

/** A token the upstream no longer accepts (revoked, or expired early) is dropped, so the next call fetches one. */
export function forgetBaiduToken(channel: RuntimeChannel): void {
  held.delete(`${baiduBase(channel)}\n${channel.key}`);
}
