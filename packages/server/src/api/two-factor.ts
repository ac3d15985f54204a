import {
  Role,
  type TwoFactorBackupCodesView,
  type TwoFactorStatsView,
  twoFactorCodeSchema,
  UserStatus,
} from '@gateway/shared';
import type { FastifyInstance } from 'fastify';
import { criticalLimit } from '../auth/critical-limit.js';
import { currentUser, guards } from '../auth/guard.js';
import type { AppContext } from '../context.js';
import { nowSeconds } from '../db/sql-helpers.js';
import { ApiFailure, messageFor, ok } from '../http/envelope.js';
import { parseBody } from '../http/validation.js';
import { endSecondStep, LOGIN_FLOW_COOKIE, readLoginFlow } from '../services/accounts/login-flow.js';
import { twoFactor } from '../services/accounts/two-factor.js';
import { recordAudit } from '../services/audit/audit-trail.js';
import { finishLogin } from './user-session.js';

/** Two-factor sign-in: the family's routes (new-api's controller/twofa.go) for the user, the sign-in and admins. */
export async function twoFactorRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { user: requireUser, admin } = guards(ctx);
  const tf = twoFactor(ctx);
  const critical = criticalLimit(ctx);
  const audit = (request: Parameters<typeof recordAudit>[1], action: string, targetId: number) =>
    recordAudit(ctx, request, [{ action, targetType: 'user', targetId, changes: [], always: true }]);

  app.get('/api/user/2fa/status', { preHandler: requireUser }, async (request) =>
    ok(await tf.status(currentUser(request))),
  );

  app.post('/api/user/2fa/setup', { preHandler: requireUser }, async (request) => {
    const setup = await tf.startSetup(currentUser(request));
    return ok(setup, messageFor(request, 'two_fa_setup_started'));
  });

  app.post('/api/user/2fa/enable', { preHandler: requireUser }, async (request) => {
    const user = currentUser(request);
    await tf.enable(user, parseBody(twoFactorCodeSchema, request.body).code);
    await audit(request, 'user.2fa_enable', user.id);
    return ok(undefined, messageFor(request, 'two_fa_enabled'));
  });

  app.post('/api/user/2fa/disable', { preHandler: requireUser }, async (request) => {
    const user = currentUser(request);
    await tf.disable(user, parseBody(twoFactorCodeSchema, request.body).code);
    await audit(request, 'user.2fa_self_disable', user.id);
    return ok(undefined, messageFor(request, 'two_fa_disabled'));
  });

  app.post('/api/user/2fa/backup_codes', { preHandler: requireUser }, async (request) => {
    const user = currentUser(request);
    const codes = await tf.regenerateBackupCodes(user, parseBody(twoFactorCodeSchema, request.body).code);
    await audit(request, 'user.2fa_backup_codes_regenerate', user.id);
    const view: TwoFactorBackupCodesView = { backup_codes: codes };
    return ok(view, messageFor(request, 'two_fa_backup_codes_regenerated'));
  });

  // The second step of a password sign-in: the flow token from the first step's answer (or its cookie) and a code.
  app.post('/api/user/login/2fa', { preHandler: critical, bodyLimit: 16 * 1024 }, async (request, reply) => {
    const input = parseBody(twoFactorCodeSchema, request.body);
    const token = input.flow_token || request.cookies[LOGIN_FLOW_COOKIE];
    const userId = readLoginFlow(token, ctx.config.sessionSecret, nowSeconds());
    const user = userId === null ? undefined : await ctx.repos.users.findById(userId);
    if (!user || user.deleted_at !== null) throw new ApiFailure('two_fa_flow_expired');
    if (user.status !== UserStatus.Enabled) throw new ApiFailure('user_banned');
    try {
      await tf.verifyLogin(user.id, input.code);
    } catch (error) {
      const failed = { action: 'user.login_2fa_failed', targetType: 'user', targetId: user.id } as const;
      await recordAudit(ctx, request, [{ ...failed, changes: [], always: true }], null);
      throw error;
    }
    endSecondStep(reply);
    return finishLogin(ctx, request, reply, user);
  });

  app.get('/api/user/2fa/stats', { preHandler: admin }, async () => {
    const { totalUsers, enabledUsers } = await ctx.repos.twoFas.stats();
    const rate = totalUsers > 0 ? (enabledUsers / totalUsers) * 100 : 0;
    const view: TwoFactorStatsView = {
      total_users: totalUsers,
      enabled_users: enabledUsers,
      enabled_rate: `${rate.toFixed(1)}%`,
    };
    return ok(view);
  });

  // An admin's reset for a user who lost the authenticator: everything removed, every session of theirs ended.
  app.delete('/api/user/:id/2fa', { preHandler: admin }, async (request) => {
    const actor = currentUser(request);
    const id = Number((request.params as { id: string }).id);
    if (!Number.isSafeInteger(id) || id <= 0) throw new ApiFailure('user_not_found');
    const target = await ctx.repos.users.findById(id);
    if (!target) throw new ApiFailure('user_not_found');
    if (target.role >= actor.role && actor.role < Role.Root) throw new ApiFailure('two_fa_same_level');
    if (!(await tf.reset(target.id))) throw new ApiFailure('two_fa_not_enabled');
    await ctx.sessions.destroyAllOf(target.id);
    await audit(request, 'user.2fa_disable', target.id);
    return ok(undefined, messageFor(request, 'two_fa_admin_reset'));
  });
}
