import type { FastifyInstance } from 'fastify';
import { currentUser, guards } from '../auth/guard.js';
import type { AppContext } from '../context.js';
import { ApiFailure, ok } from '../http/envelope.js';
import { queryNumber, queryString } from '../http/paging.js';

const WEEK_SECONDS = 7 * 86_400;

/** start_timestamp / end_timestamp (seconds); by default the last seven days. */
function range(query: Record<string, unknown>) {
  const end = queryNumber(query, 'end_timestamp') ?? Math.floor(Date.now() / 1000);
  const start = queryNumber(query, 'start_timestamp') ?? end - WEEK_SECONDS;
  if (start > end) throw new ApiFailure('data_range_invalid');
  return { start, end };
}

/** Hourly consumption for the dashboard: every user's for admins (optionally one username), one's own otherwise. */
export async function dataRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { user: requireUser, admin } = guards(ctx);

  app.get('/api/data/', { preHandler: admin }, async (request) => {
    const query = request.query as Record<string, unknown>;
    const { start, end } = range(query);
    // What is still aggregated in memory belongs on the chart the admin opens now.
    await ctx.quotaExporter.flush();
    return ok(await ctx.repos.quotaData.range(start, end, undefined, queryString(query, 'username')));
  });

  app.get('/api/data/self', { preHandler: requireUser }, async (request) => {
    const { start, end } = range(request.query as Record<string, unknown>);
    await ctx.quotaExporter.flush();
    return ok(await ctx.repos.quotaData.range(start, end, currentUser(request).id));
  });
}
