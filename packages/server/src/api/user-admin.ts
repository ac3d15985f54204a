import {
  type AdminUserView,
  formatQuota,
  LogType,
  logFacts,
  Role,
  UserStatus,
  userCreateSchema,
  userManageSchema,
  userUpdateSchema,
} from '@gateway/shared';
import type { FastifyInstance } from 'fastify';
import { currentUser, guards } from '../auth/guard.js';
import { hashPassword } from '../auth/password.js';
import { adjustQuotaByAdmin } from '../billing/credits.js';
import type { AppContext } from '../context.js';
import type { UserRow, UserUpdate } from '../db/schema.js';
import { nowSeconds } from '../db/sql-helpers.js';
import { ApiFailure, messageFor, ok } from '../http/envelope.js';
import { queryString, readPaging } from '../http/paging.js';
import { parseBody } from '../http/validation.js';
import { limitColumnsOf } from '../relay/admission/limits/token-limits-view.js';
import { recordAudit } from '../services/audit/audit-trail.js';
import { userChanges } from '../services/audit/entity-diffs.js';

/** What the user table shows: never a password hash or an access token. */
export function adminUserView(user: UserRow) {
  const { password: _password, access_token: _token, ...rest } = user;
  return { ...rest, DeletedAt: user.deleted_at } satisfies AdminUserView;
}

/**
 * Server-side rules (spec 000 §6 and the family): an admin acts only on users of a lower role; only root makes
 * admins; root is never disabled or deleted; deleting is a soft delete that ends sessions and API keys at once.
 */
export async function userAdminRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { admin } = guards(ctx);
  const users = ctx.repos.users;

  const load = async (id: number) => {
    const user = await users.findById(id);
    if (!user) throw new ApiFailure('user_not_found');
    return user;
  };
  // Root may edit itself; an admin editing itself here could raise its own quota or change its own group.
  const assertBelow = (actor: UserRow, target: UserRow) => {
    if (target.role >= actor.role && actor.role < Role.Root) throw new ApiFailure('user_same_or_higher');
  };
  /** The relay caches users and balances: a change here must reach it before the next request. */
  const forget = async (id: number, quotaChanged: boolean) => {
    await ctx.authCache.dropUser(id);
    if (quotaChanged) ctx.ledger.markStale('user', id);
  };

  const list = async (query: Record<string, unknown>) => {
    const { page, pageSize, offset } = readPaging(query);
    const result = await users.search(
      { keyword: queryString(query, 'keyword') || undefined, group: queryString(query, 'group') || undefined },
      offset,
      pageSize,
    );
    return ok({ items: result.items.map(adminUserView), total: result.total, page, page_size: pageSize });
  };
  app.get('/api/user/', { preHandler: admin }, async (request) => list(request.query as Record<string, unknown>));
  app.get('/api/user/search', { preHandler: admin }, async (request) => list(request.query as Record<string, unknown>));

  app.post('/api/user/', { preHandler: admin }, async (request) => {
    const input = parseBody(userCreateSchema, request.body);
    if (await users.usernameTaken(input.username)) throw new ApiFailure('user_username_taken');
    const id = await users.insert({
      username: input.username,
      password: await hashPassword(input.password),
      display_name: input.display_name || input.username,
      quota: ctx.options.number('QuotaForNewUser'),
    });
    await recordAudit(ctx, request, [
      { action: 'user.create', targetType: 'user', targetId: id, changes: userChanges(null, await load(id)) },
    ]);
    return ok(undefined, messageFor(request, 'user_created'));
  });

  app.put('/api/user/', { preHandler: admin }, async (request) => {
    const actor = currentUser(request);
    const input = parseBody(userUpdateSchema, request.body);
    const target = await load(input.id);
    if (target.deleted_at !== null) throw new ApiFailure('user_deleted');
    assertBelow(actor, target);
    if (await users.usernameTaken(input.username, target.id)) throw new ApiFailure('user_username_taken');
    const changes: UserUpdate = {
      username: input.username,
      display_name: input.display_name,
      group: input.group,
      quota: input.quota,
    };
    if (input.email !== undefined) changes.email = input.email;
    if (input.remark !== undefined) changes.remark = input.remark;
    Object.assign(changes, limitColumnsOf(input));
    if (input.password) changes.password = await hashPassword(input.password);
    // Flush first so the absolute quota the admin saw and typed is not undercut by unflushed consumption.
    await ctx.ledger.flush();
    await users.update(target.id, changes);
    await forget(target.id, input.quota !== target.quota);
    if (input.password) await ctx.sessions.destroyAllOf(target.id);
    await recordAudit(ctx, request, [
      {
        action: 'user.update',
        targetType: 'user',
        targetId: target.id,
        changes: userChanges(target, await load(target.id)),
      },
    ]);
    if (input.quota !== target.quota) {
      await writeManageLog(
        ctx,
        target,
        `管理员将用户额度从 ${quotaText(ctx, target.quota)} 修改为 ${quotaText(ctx, input.quota)}`,
        logFacts('admin_set_quota', { from: target.quota, to: input.quota }),
      );
    }
    return ok(undefined, messageFor(request, 'user_updated'));
  });

  app.post('/api/user/manage', { preHandler: admin }, async (request) => {
    const actor = currentUser(request);
    const { id, action, value } = parseBody(userManageSchema, request.body);
    const target = await load(id);
    if (target.deleted_at !== null) throw new ApiFailure('user_deleted');
    if (target.role >= actor.role) throw new ApiFailure('user_same_or_higher');
    let changes: UserUpdate = {};
    switch (action) {
      case 'promote':
        if (actor.role < Role.Root) throw new ApiFailure('user_root_only_promote');
        if (target.role >= Role.Admin) throw new ApiFailure('user_already_admin');
        changes = { role: Role.Admin };
        break;
      case 'demote':
        if (target.role < Role.Admin) throw new ApiFailure('user_already_common');
        changes = { role: Role.Common };
        break;
      case 'disable':
        if (target.role >= Role.Root) throw new ApiFailure('user_root_protected');
        changes = { status: UserStatus.Disabled };
        break;
      case 'enable':
        changes = { status: UserStatus.Enabled };
        break;
      case 'delete':
        if (target.role >= Role.Root) throw new ApiFailure('user_root_protected');
        changes = { deleted_at: nowSeconds() };
        break;
      case 'add_quota': {
        const delta = value ?? 0;
        if (delta !== 0) await adjustQuotaByAdmin(ctx, target, delta);
        break;
      }
    }
    if (Object.keys(changes).length) await users.update(target.id, changes);
    if (action === 'disable' || action === 'delete') await ctx.sessions.destroyAllOf(target.id);
    await forget(target.id, false);
    const updated = await load(target.id);
    await recordAudit(ctx, request, [
      { action: `user.${action}`, targetType: 'user', targetId: target.id, changes: userChanges(target, updated) },
    ]);
    return ok(
      { status: updated.status, role: updated.role, quota: updated.quota },
      messageFor(request, 'user_action_done'),
    );
  });
}

function quotaText(ctx: AppContext, quota: number): string {
  return formatQuota(quota, { quotaPerUnit: ctx.options.number('QuotaPerUnit'), displayInCurrency: true });
}

async function writeManageLog(ctx: AppContext, user: UserRow, content: string, other: string): Promise<void> {
  await ctx.repos.logs.insertMany([
    { user_id: user.id, username: user.username, created_at: nowSeconds(), type: LogType.Manage, content, other },
  ]);
}
