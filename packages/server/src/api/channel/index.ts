import { modelsByChannelType } from '@gateway/shared';
import type { FastifyInstance } from 'fastify';
import { guards } from '../../auth/guard.js';
import type { AppContext } from '../../context.js';
import { ok } from '../../http/envelope.js';
import { channelCrudRoutes } from './crud.js';
import { channelTagRoutes } from './tags.js';
import { channelUpstreamRoutes } from './upstream.js';
import { channelUpstreamWatchRoutes } from './upstream-watch.js';

export async function channelRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { admin } = guards(ctx);
  // Static tag routes are registered before `/api/channel/:id` patterns match them: Fastify prefers static parts.
  await channelTagRoutes(app, ctx);
  await channelUpstreamRoutes(app, ctx);
  await channelUpstreamWatchRoutes(app, ctx);
  await channelCrudRoutes(app, ctx);
  // GET /api/models (the channel editor's type → models map) is served by api/catalogue.ts beside /api/models/.
  app.get('/api/channel/models', { preHandler: admin }, async () => {
    const names = new Set(Object.values(modelsByChannelType()).flat());
    return ok([...names].sort().map((id) => ({ id, object: 'model', owned_by: 'gateway' })));
  });
}
