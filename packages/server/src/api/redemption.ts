import { RedemptionStatus, type RedemptionView, redemptionCreateSchema, redemptionUpdateSchema } from '@gateway/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { currentUser, guards } from '../auth/guard.js';
import type { AppContext } from '../context.js';
import type { RedemptionRow } from '../db/schema.js';
import { ApiFailure, messageFor, ok } from '../http/envelope.js';
import { queryString, readPaging } from '../http/paging.js';
import { parseBody } from '../http/validation.js';
import { recordAudit } from '../services/audit/audit-trail.js';
import { redemptionChanges } from '../services/audit/entity-diffs.js';
import { randomText } from './token.js';

const statusSchema = z.object({ id: z.number().int().positive(), status: z.number().int() });

/** Admins see codes in full: creating and handing them out is their job. */
export function redemptionView(row: RedemptionRow) {
  const { deleted_at: _deleted, ...rest } = row;
  return rest satisfies RedemptionView;
}

export async function redemptionRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { admin } = guards(ctx);
  const repo = ctx.repos.redemptions;
  const audit = (request: FastifyRequest, action: string, before: RedemptionRow | null, after: RedemptionRow | null) =>
    recordAudit(ctx, request, [
      {
        action: `redemption.${action}`,
        targetType: 'redemption',
        targetId: (after ?? before)!.id,
        changes: redemptionChanges(before, after),
      },
    ]);

  const list = async (query: Record<string, unknown>) => {
    const { page, pageSize, offset } = readPaging(query);
    const result = await repo.list(queryString(query, 'keyword'), offset, pageSize);
    return ok({ items: result.items.map(redemptionView), total: result.total, page, page_size: pageSize });
  };
  app.get('/api/redemption/', { preHandler: admin }, async (request) => list(request.query as Record<string, unknown>));
  app.get('/api/redemption/search', { preHandler: admin }, async (request) =>
    list(request.query as Record<string, unknown>),
  );

  app.get('/api/redemption/:id', { preHandler: admin }, async (request) => {
    const code = await repo.findById(Number((request.params as { id: string }).id));
    if (!code) throw new ApiFailure('redemption_not_found');
    return ok(redemptionView(code));
  });

  // Keys are 32 characters from a CSPRNG; the whole batch is created in one transaction and returned to copy.
  app.post('/api/redemption/', { preHandler: admin }, async (request) => {
    const input = parseBody(redemptionCreateSchema, request.body);
    const rows = Array.from({ length: input.count }, () => ({
      user_id: currentUser(request).id,
      key: randomText(32),
      name: input.name,
      quota: input.quota,
      expired_time: input.expired_time,
    }));
    await ctx.db.inTransaction((trx) => repo.insertMany(trx, rows));
    for (const row of rows) {
      const created = await repo.findByKey(row.key);
      if (created) await audit(request, 'create', null, created);
    }
    return ok(
      rows.map((row) => row.key),
      messageFor(request, 'created_count', { count: rows.length }),
    );
  });

  app.put('/api/redemption/', { preHandler: admin }, async (request) => {
    const statusOnly = ['true', '1'].includes(String((request.query as Record<string, unknown>).status_only ?? ''));
    if (statusOnly) {
      const { id, status } = parseBody(statusSchema, request.body);
      if (status !== RedemptionStatus.Unused && status !== RedemptionStatus.Disabled) {
        throw new ApiFailure('redemption_status_invalid');
      }
      const code = await repo.findById(id);
      if (!code) throw new ApiFailure('redemption_not_found');
      if (code.status === RedemptionStatus.Used) throw new ApiFailure('redemption_used_cannot_enable');
      if (!(await repo.updateUnused(id, { status }))) throw new ApiFailure('redemption_used_cannot_enable');
      await audit(request, 'status', code, (await repo.findById(id)) ?? null);
      return ok(redemptionView({ ...code, status }), messageFor(request, 'updated'));
    }
    const input = parseBody(redemptionUpdateSchema, request.body);
    const code = await repo.findById(input.id);
    if (!code) throw new ApiFailure('redemption_not_found');
    const changes = { name: input.name, quota: input.quota, expired_time: input.expired_time };
    if (code.status === RedemptionStatus.Used || !(await repo.updateUnused(input.id, changes))) {
      throw new ApiFailure('redemption_used_cannot_edit');
    }
    await audit(request, 'update', code, (await repo.findById(input.id)) ?? null);
    return ok(redemptionView({ ...code, ...changes }), messageFor(request, 'updated'));
  });

  app.delete('/api/redemption/:id', { preHandler: admin }, async (request) => {
    const id = Number((request.params as { id: string }).id);
    const code = Number.isInteger(id) ? await repo.findById(id) : undefined;
    if (!code || !(await repo.delete(id))) throw new ApiFailure('redemption_not_found');
    await audit(request, 'delete', code, null);
    return ok(undefined, messageFor(request, 'deleted_count', { count: 1 }));
  });
}
