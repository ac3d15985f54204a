import { affTransferSchema, formatQuota, Role, selfUpdateSchema, userSettingSchema } from '@gateway/shared';
import type { FastifyInstance } from 'fastify';
import { currentUser, guards } from '../auth/guard.js';
import { hashPassword, verifyPassword } from '../auth/password.js';
import { SESSION_COOKIE } from '../auth/session-cookie.js';
import { transferAffQuota } from '../billing/credits.js';
import type { AppContext } from '../context.js';
import { nowSeconds } from '../db/sql-helpers.js';
import { ApiFailure, messageFor, ok } from '../http/envelope.js';
import { parseBody } from '../http/validation.js';
import { refusedPublicUrl } from '../services/security/outbound.js';
import { randomText } from './token.js';

/** What a user may change about themselves (spec 000 "Personal settings"); role, quota, group never. */
export async function userPersonalRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { user: requireUser } = guards(ctx);
  const users = ctx.repos.users;

  app.put('/api/user/self', { preHandler: requireUser }, async (request) => {
    const user = currentUser(request);
    const body = request.body as Record<string, unknown> | null;
    // The family's v0.6 console has no field for the current password and sends none: the change is still refused
    // (a stolen session must not be able to take the account), with words that tell that console's user what to do.
    if (body?.password && !('original_password' in body)) throw new ApiFailure('self_original_password_not_sent');
    const input = parseBody(selfUpdateSchema, request.body);
    if (input.password) {
      if (!(await verifyPassword(input.original_password ?? '', user.password))) {
        throw new ApiFailure('self_original_password_wrong');
      }
      await users.update(user.id, { password: await hashPassword(input.password) });
      // Every other session of this account ends; this one stays so the person is not thrown out.
      await ctx.sessions.destroyAllOf(user.id);
      if (request.sessionId) await ctx.sessions.create(request.sessionId, user.id, ctx.config.sessionTtlSeconds);
      return ok(undefined, messageFor(request, 'self_password_changed'));
    }
    if (input.display_name !== undefined) await users.update(user.id, { display_name: input.display_name });
    await ctx.authCache.dropUser(user.id);
    return ok(undefined, messageFor(request, 'user_updated'));
  });

  app.delete('/api/user/self', { preHandler: requireUser }, async (request, reply) => {
    const user = currentUser(request);
    if (user.role >= Role.Root) throw new ApiFailure('self_root_cannot_delete');
    await users.update(user.id, { deleted_at: nowSeconds() });
    await ctx.sessions.destroyAllOf(user.id);
    await ctx.authCache.dropUser(user.id);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return ok(undefined, messageFor(request, 'self_deleted'));
  });

  // A new system access token replaces the old one; it is shown once here and never again.
  app.get('/api/user/token', { preHandler: requireUser }, async (request) => {
    const token = randomText(32);
    await users.update(currentUser(request).id, { access_token: token });
    return ok(token);
  });

  app.get('/api/user/aff', { preHandler: requireUser }, async (request) => {
    const user = currentUser(request);
    if (user.aff_code) return ok(user.aff_code);
    // Four characters like the family's; a collision with the unique index just draws again.
    for (let attempt = 0; attempt < 10; attempt++) {
      const code = randomText(4);
      try {
        await users.update(user.id, { aff_code: code });
        return ok(code);
      } catch {
        // taken: try another
      }
    }
    throw new ApiFailure('internal_error');
  });

  app.post('/api/user/aff_transfer', { preHandler: requireUser }, async (request) => {
    const user = currentUser(request);
    const { quota } = parseBody(affTransferSchema, request.body);
    const perUnit = ctx.options.number('QuotaPerUnit');
    const display = { quotaPerUnit: perUnit, displayInCurrency: true };
    if (quota < perUnit) throw new ApiFailure('aff_transfer_min', { min: formatQuota(perUnit, display) });
    if (!(await transferAffQuota(ctx, user, quota))) throw new ApiFailure('aff_transfer_insufficient');
    return ok(undefined, messageFor(request, 'aff_transfer_done'));
  });

  app.put('/api/user/setting', { preHandler: requireUser }, async (request) => {
    const user = currentUser(request);
    const input = parseBody(userSettingSchema, request.body);
    // The webhook is checked when it is sent too; saying so now spares the user a notice that never arrives.
    if (input.webhook_url) {
      const refused = await refusedPublicUrl(input.webhook_url, ctx.options.bool('fetch_setting.allow_private_ip'));
      if (refused) throw new ApiFailure(WEBHOOK_REFUSALS[refused]);
    }
    let current: Record<string, unknown> = {};
    try {
      current = JSON.parse(user.setting ?? '{}') as Record<string, unknown>;
    } catch {
      current = {};
    }
    await users.update(user.id, { setting: JSON.stringify({ ...current, ...input }) });
    await ctx.authCache.dropUser(user.id);
    return ok(undefined, messageFor(request, 'setting_saved'));
  });
}

const WEBHOOK_REFUSALS = {
  invalid: 'setting_webhook_https',
  not_https: 'setting_webhook_https',
  private: 'setting_webhook_private',
  unresolved: 'setting_webhook_unresolved',
} as const;
