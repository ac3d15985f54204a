import { type AuditChangeView, type AuditLogView, Role } from '@gateway/shared';
import type { FastifyInstance } from 'fastify';
import { currentUser, guards } from '../auth/guard.js';
import type { AppContext } from '../context.js';
import type { AuditFilter } from '../db/repos/audit-logs.js';
import type { AuditLogRow } from '../db/schema.js';
import { ok } from '../http/envelope.js';
import { queryString, readPaging } from '../http/paging.js';

function int(value: unknown): number | undefined {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : undefined;
}

/** The stored diff as the console reads it: a list of changes (a row that holds anything else shows none). */
function changesOf(text: string): AuditChangeView[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? (parsed as AuditChangeView[]) : [];
  } catch {
    return [];
  }
}

function auditView(row: AuditLogRow) {
  return { ...row, diff: changesOf(row.diff) } satisfies AuditLogView;
}

/**
 * The audit trail, for admins and root. Admins act on users, channels and codes, so they see what every admin did
 * there; option rows are root's only, because option values are readable by root alone (GET /api/option/).
 */
export async function auditRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { admin } = guards(ctx);

  app.get('/api/audit/', { preHandler: admin }, async (request) => {
    const query = request.query as Record<string, unknown>;
    const { page, pageSize, offset } = readPaging(query);
    const filter: AuditFilter = {
      action: queryString(query, 'action') || undefined,
      actorUsername: queryString(query, 'actor') || undefined,
      targetType: queryString(query, 'target_type') || undefined,
      targetId: queryString(query, 'target_id') || undefined,
      startTimestamp: int(query.start_timestamp),
      endTimestamp: int(query.end_timestamp),
      excludeTargetTypes: currentUser(request).role >= Role.Root ? undefined : ['option'],
    };
    const result = await ctx.repos.auditLogs.list(filter, offset, pageSize);
    return ok({ items: result.items.map(auditView), total: result.total, page, page_size: pageSize });
  });
}
