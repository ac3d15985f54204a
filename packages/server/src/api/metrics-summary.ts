import type { FastifyInstance } from 'fastify';
import { guards } from '../auth/guard.js';
import type { AppContext } from '../context.js';
import { ok } from '../http/envelope.js';
import { metricsSummary } from '../metrics/summary.js';

/** `GET /api/metrics/summary`: root's dashboard reads this node's relay figures (the console, not Prometheus). */
export async function metricsSummaryRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { root } = guards(ctx);
  app.get('/api/metrics/summary', { preHandler: root }, async () => ok(metricsSummary(ctx)));
}
