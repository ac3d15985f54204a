import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { nowSeconds } from '../../db/sql-helpers.js';
import { clientIp } from '../../http/request-ip.js';
import type { FieldChange } from './field-diff.js';

export interface AuditEntry {
  /** `area.verb`, e.g. `channel.update`, `user.login_failed`. */
  action: string;
  targetType: 'user' | 'channel' | 'option' | 'redemption' | 'log' | 'custom_oauth';
  targetId: string | number;
  changes: FieldChange[];
  /** Written even without a changed field (sign-ins, rebuilds); otherwise a save that changed nothing is left out. */
  always?: boolean;
}

const MAX_NAME = 64;
const MAX_TARGET = 128;

/**
 * Records admin changes and sign-ins. Called after the change succeeded and awaited, so the answer to the admin
 * leaves only once the row is stored; a failed write is logged, never turned into a failed answer for a change
 * that already happened. `actor` defaults to the signed-in caller; null is nobody (a failed sign-in).
 */
export async function recordAudit(
  ctx: AppContext,
  request: FastifyRequest,
  entries: AuditEntry[],
  actor: UserRow | null = request.user ?? null,
): Promise<void> {
  const rows = entries
    .filter((entry) => entry.always || entry.changes.length > 0)
    .map((entry) => ({
      created_at: nowSeconds(),
      actor_id: actor?.id ?? null,
      actor_username: actor?.username ?? null,
      action: entry.action,
      target_type: entry.targetType,
      target_id: String(entry.targetId).slice(0, MAX_TARGET),
      ip: clientIp(request, ctx.config.trustedProxies).slice(0, MAX_NAME),
      diff: JSON.stringify(entry.changes),
    }));
  if (rows.length === 0) return;
  try {
    await ctx.repos.auditLogs.insertMany(rows);
  } catch (err) {
    request.log.error({ err, actions: [...new Set(rows.map((row) => row.action))] }, 'audit log write failed');
  }
}
