import type { FastifyInstance } from 'fastify';
import { guards } from '../../auth/guard.js';
import type { AppContext } from '../../context.js';
import { ApiFailure, ok } from '../../http/envelope.js';
import { discoverOidc } from '../../services/accounts/oauth/oidc-discovery.js';

/** `POST /api/oauth/oidc/discovery {well_known}`: the settings page fills the three OIDC endpoints from it. */
export async function oidcDiscoveryRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { root } = guards(ctx);
  app.post('/api/oauth/oidc/discovery', { preHandler: root, bodyLimit: 8192 }, async (request) => {
    const wellKnown = (request.body as { well_known?: unknown } | undefined)?.well_known;
    if (typeof wellKnown !== 'string' || !wellKnown.trim()) throw new ApiFailure('oidc_well_known_invalid');
    return ok(await discoverOidc(ctx, wellKnown.trim()));
  });
}
