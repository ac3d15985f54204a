import type { FastifyInstance, FastifyRequest } from 'fastify';
import { currentUser, guards } from '../auth/guard.js';
import type { AppContext } from '../context.js';
import { ok } from '../http/envelope.js';
import { taskListItem } from '../relay/tasks/task-list-item.js';
import { readTaskListQuery } from './task-list-query.js';

/**
 * Async task logs (Suno; spec 001 §7): `GET /api/task/` for admins, `GET /api/task/self` for the caller's own.
 * Times are seconds; `data` is a plain list like the drawing log's.
 */
export async function taskRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { user: requireUser, admin: requireAdmin } = guards(ctx);

  const list = async (request: FastifyRequest, admin: boolean, userId?: number) => {
    const query = readTaskListQuery(request.query as Record<string, unknown>, 'task_id', admin);
    const rows = await ctx.repos.tasks.list(
      { userId, channelId: query.channelId, taskId: query.id, startTimestamp: query.start, endTimestamp: query.end },
      query.offset,
      query.limit,
    );
    return ok(rows.map((row) => taskListItem(row, admin)));
  };

  app.get('/api/task/', { preHandler: requireAdmin }, async (request) => list(request, true));
  app.get('/api/task/self', { preHandler: requireUser }, async (request) =>
    list(request, false, currentUser(request).id),
  );
}
