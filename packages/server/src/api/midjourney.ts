import type { FastifyInstance, FastifyRequest } from 'fastify';
import { currentUser, guards } from '../auth/guard.js';
import type { AppContext } from '../context.js';
import { ok } from '../http/envelope.js';
import { imageUrlFor, midjourneyListItem } from '../relay/tasks/midjourney/view.js';
import { readTaskListQuery } from './task-list-query.js';

/**
 * Drawing logs (spec 001 §7): `GET /api/mj/` for admins (every user, channel filter), `GET /api/mj/self` for the
 * caller's own tasks. Times are milliseconds; `data` is a plain list (the console asks for the next page when it
 * reaches the last one it has).
 */
export async function midjourneyRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { user: requireUser, admin: requireAdmin } = guards(ctx);

  const list = async (request: FastifyRequest, admin: boolean, userId?: number) => {
    const query = readTaskListQuery(request.query as Record<string, unknown>, 'mj_id', admin);
    const rows = await ctx.repos.midjourneys.list(
      { userId, channelId: query.channelId, mjId: query.id, startMs: query.start, endMs: query.end },
      query.offset,
      query.limit,
    );
    // Same-origin links unless ServerAddress says otherwise, so the console's previews load through the gateway.
    const forward = ctx.options.bool('MjForwardUrlEnabled');
    const base = ctx.options.get('ServerAddress');
    return ok(rows.map((row) => midjourneyListItem(row, imageUrlFor(row, forward, base), admin)));
  };

  app.get('/api/mj/', { preHandler: requireAdmin }, async (request) => list(request, true));
  app.get('/api/mj/self', { preHandler: requireUser }, async (request) =>
    list(request, false, currentUser(request).id),
  );
}
