import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { ApiFailure } from '../../http/envelope.js';

/** Who the passkeys are for (the WebAuthn relying party) and which pages may use them. */
export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
  userVerification: 'required' | 'preferred' | 'discouraged';
  attachment: 'platform' | 'cross-platform' | undefined;
}

function originOf(address: string): string | null {
  try {
    const url = new URL(address);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

function isSecure(origin: string): boolean {
  const url = new URL(origin);
  return url.protocol === 'https:' || url.hostname === 'localhost' || url.hostname.endsWith('.localhost');
}

/**
 * The family's rules: `passkey.rp_id` or else the host of ServerAddress; `passkey.origins` (a comma list) or else
 * ServerAddress. Ours when neither is set: the address the browser used. Plain-http origins other than localhost
 * count only with `passkey.allow_insecure_origin`.
 */
export function relyingParty(ctx: AppContext, request: FastifyRequest): RelyingParty {
  const o = ctx.options;
  const requestOrigin = originOf(`${request.protocol}://${request.headers.host ?? 'localhost'}`);
  const serverOrigin = originOf(o.get('ServerAddress').trim());
  const configured = o
    .get('passkey.origins')
    .split(/[\s,]+/)
    .map((origin) => originOf(origin))
    .filter((origin): origin is string => origin !== null);
  const candidates = configured.length ? configured : [serverOrigin ?? requestOrigin].filter((x) => x !== null);
  const origins = o.bool('passkey.allow_insecure_origin') ? candidates : candidates.filter(isSecure);
  if (!origins.length) throw new ApiFailure('passkey_insecure_origin');
  const fallbackOrigin = serverOrigin ?? requestOrigin ?? origins[0]!;
  const attachment = o.get('passkey.attachment_preference');
  return {
    id: o.get('passkey.rp_id').trim() || new URL(fallbackOrigin).hostname,
    name: o.get('passkey.rp_display_name').trim() || o.get('SystemName'),
    origins,
    userVerification: o.get('passkey.user_verification') as RelyingParty['userVerification'],
    attachment: attachment === 'platform' || attachment === 'cross-platform' ? attachment : undefined,
  };
}
