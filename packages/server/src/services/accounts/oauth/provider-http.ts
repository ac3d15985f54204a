import { ApiFailure } from '../../../http/envelope.js';
import { OutboundError, type OutboundResponse, outboundFetch } from '../../security/outbound.js';

/**
 * Calls to authorisation servers go through the SSRF-safe outbound client. `allowPrivate` is decided by the
 * caller: endpoints an admin typed into a form follow `fetch_setting.allow_private_ip`; endpoints from the
 * environment were set by whoever runs the server and are trusted like SQL_DSN.
 */
export interface ProviderCall {
  provider: string;
  allowPrivate: boolean;
}

export async function providerFetch(
  call: ProviderCall,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<OutboundResponse> {
  try {
    return await outboundFetch(url, init, {
      allowPrivate: call.allowPrivate,
      timeoutMs: 15_000,
      maxBytes: 1024 * 1024,
    });
  } catch (error) {
    if (error instanceof OutboundError) {
      throw new ApiFailure('oauth_provider_unreachable', { provider: call.provider, reason: error.message });
    }
    throw error;
  }
}

/** The provider's JSON answer as an object; anything else is a failure that names the provider and the status. */
export function jsonObject(call: ProviderCall, response: OutboundResponse): Record<string, unknown> {
  let value: unknown;
  try {
    value = response.json();
  } catch {
    value = undefined;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiFailure('oauth_provider_failed', {
      provider: call.provider,
      reason: `HTTP ${response.status}, not a JSON object`,
    });
  }
  return value as Record<string, unknown>;
}

/** OAuth error answers (RFC 6749 §5.2) carry `error` and often `error_description`. */
export function oauthErrorReason(body: Record<string, unknown>, status: number): string | null {
  if (typeof body.error === 'string' && body.error) {
    const description = typeof body.error_description === 'string' ? body.error_description : '';
    return description ? `${body.error}: ${description}` : body.error;
  }
  return status >= 400 ? `HTTP ${status}` : null;
}

/** Reads the access token from a token-endpoint answer or fails with the provider's own reason. */
export function accessTokenFrom(call: ProviderCall, response: OutboundResponse): Record<string, unknown> {
  const body = jsonObject(call, response);
  const reason = oauthErrorReason(body, response.status);
  if (reason) throw new ApiFailure('oauth_provider_failed', { provider: call.provider, reason });
  if (typeof body.access_token !== 'string' || !body.access_token) {
    throw new ApiFailure('oauth_provider_failed', { provider: call.provider, reason: 'no access_token' });
  }
  return body;
}

/** A string or number claim as a string ('' when absent): provider ids arrive as either. */
export function claim(body: Record<string, unknown>, key: string): string {
  const value = body[key];
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}
