import type { FastifyInstance } from 'fastify';
import { currentUser, guards } from '../auth/guard.js';
import type { AppContext } from '../context.js';
import { ok } from '../http/envelope.js';
import { queryString } from '../http/paging.js';

function range(query: Record<string, unknown>) {
  const now = Math.floor(Date.now() / 1000);
  const start = Number(query.start_timestamp);
  const end = Number(query.end_timestamp);
  return {
    start: Number.isInteger(start) && start > 0 ? start : now - 7 * 86_400,
    end: Number.isInteger(end) && end > 0 ? end : now,
  };
}

/** Hourly consumption for the dashboard: every user's for admins (optionally one username), one's own otherwise. */
export async function dataRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { user: requireUser, admin } = guards(ctx);

  app.get('/api/data/', { preHandler: admin }, async (request) => {
    const query = request.query as Record<string, unknown>;
    const { start, end } = range(query);
    // What is still aggregated in memory belongs on the chart the admin opens now.
    await ctx.quotaExporter.flush();
    const rows = await ctx.repos.quotaData.range(start, end);
    const username = queryString(query, 'username');
    return ok(username ? rows.filter((row) => row.username === username) : rows);
  });

  app.get('/api/data/self', { preHandler: requireUser }, async (request) => {
    const { start, end } = range(request.query as Record<string, unknown>);
    await ctx.quotaExporter.flush();
    return ok(await ctx.repos.quotaData.range(start, end, currentUser(request).id));
  });
}
