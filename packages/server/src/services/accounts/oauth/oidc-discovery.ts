import type { AppContext } from '../../../context.js';
import { ApiFailure } from '../../../http/envelope.js';
import { OutboundError, outboundFetch } from '../../security/outbound.js';

export interface OidcEndpoints {
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint: string;
  issuer: string;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * Reads an OpenID Provider's well-known document (OIDC Discovery 1.0 §4) through the SSRF-safe client: the URL is
 * typed by an admin, so private addresses need fetch_setting.allow_private_ip. The built-in OIDC settings and the
 * custom providers' form both fill their endpoints from it.
 */
export async function fetchDiscoveryDocument(ctx: AppContext, wellKnown: string): Promise<Record<string, unknown>> {
  if (!/^https?:\/\//i.test(wellKnown)) throw new ApiFailure('oidc_well_known_invalid');
  let body: unknown;
  try {
    const response = await outboundFetch(
      wellKnown,
      { headers: { accept: 'application/json' } },
      { allowPrivate: ctx.options.bool('fetch_setting.allow_private_ip'), timeoutMs: 10_000, maxBytes: 512 * 1024 },
    );
    if (response.status !== 200) throw new ApiFailure('oidc_discovery_failed', { reason: `HTTP ${response.status}` });
    body = response.json();
  } catch (error) {
    if (error instanceof ApiFailure) throw error;
    if (error instanceof OutboundError && error.reason === 'invalid_url')
      throw new ApiFailure('oidc_well_known_invalid');
    const reason = error instanceof OutboundError ? error.message : 'not a JSON document';
    throw new ApiFailure('oidc_discovery_failed', { reason });
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiFailure('oidc_discovery_failed', { reason: 'not a JSON object' });
  }
  return body as Record<string, unknown>;
}

/** The three endpoints the built-in OIDC settings need, from the well-known document. */
export async function discoverOidc(ctx: AppContext, wellKnown: string): Promise<OidcEndpoints> {
  const document = await fetchDiscoveryDocument(ctx, wellKnown);
  const endpoints: OidcEndpoints = {
    authorization_endpoint: text(document.authorization_endpoint),
    token_endpoint: text(document.token_endpoint),
    userinfo_endpoint: text(document.userinfo_endpoint),
    issuer: text(document.issuer),
  };
  if (!endpoints.authorization_endpoint || !endpoints.token_endpoint) {
    throw new ApiFailure('oidc_discovery_failed', { reason: 'authorization_endpoint or token_endpoint missing' });
  }
  return endpoints;
}
