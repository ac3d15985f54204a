import type { FastifyInstance } from 'fastify';
import { guards } from '../auth/guard.js';
import type { AppContext } from '../context.js';
import { ApiFailure, ok } from '../http/envelope.js';

/**
 * The kept request and response bodies of one usage log row, for admins only (the console loads them when an admin
 * opens the row's detail). `data` is null when none were kept for that call.
 */
export async function logBodyRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { admin: requireAdmin } = guards(ctx);
  app.get('/api/log/:id/bodies', { preHandler: requireAdmin }, async (request) => {
    const id = Number((request.params as { id: string }).id);
    if (!Number.isSafeInteger(id) || id <= 0) throw new ApiFailure('invalid_params');
    // A call answered a moment ago may still sit in the write buffers.
    await Promise.all([ctx.logWriter.flush(), ctx.bodyWriter.flush()]);
    // Two reads, not a join: the log row may be in the separate log database, the bodies are in the main one.
    const row = await ctx.repos.requestBodies.forRequest(await ctx.repos.logs.requestIdOf(id));
    return ok(
      row
        ? { request_body: row.request_body, response_body: row.response_body, created_at: Number(row.created_at) }
        : null,
    );
  });
}
