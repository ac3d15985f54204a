import { type PasskeyStatusView, type PasskeyView, passkeyNameSchema, Role, UserStatus } from '@gateway/shared';
import type { FastifyInstance } from 'fastify';
import { criticalLimit } from '../auth/critical-limit.js';
import { currentUser, guards } from '../auth/guard.js';
import type { AppContext } from '../context.js';
import type { StoredPasskey } from '../db/repos/passkeys.js';
import { ApiFailure, messageFor, ok } from '../http/envelope.js';
import {
  assertPasskeysEnabled,
  beginAssertion,
  beginRegistration,
  finishAssertion,
  finishRegistration,
} from '../services/accounts/passkeys.js';
import { recordAudit } from '../services/audit/audit-trail.js';
import { finishLogin } from './user-session.js';

function passkeyView(passkey: StoredPasskey): PasskeyView {
  return {
    id: passkey.id,
    name: passkey.name ?? '',
    created_at: passkey.createdAt?.toISOString() ?? null,
    last_used_at: passkey.lastUsedAt?.toISOString() ?? null,
    backup_state: passkey.backupState,
    attachment: passkey.attachment,
  };
}

/** A begin route's answer in the family's shape: the WebAuthn options under `publicKey`. */
const begun = (publicKey: unknown) => ok({ options: { publicKey } });

function readName(value: unknown, fallback: string): string {
  if (value === undefined || value === null || value === '') return fallback;
  const parsed = passkeyNameSchema.safeParse(value);
  if (!parsed.success) throw new ApiFailure('passkey_name_invalid');
  return parsed.data;
}

function readId(params: unknown): number {
  const id = Number((params as { id?: string }).id);
  if (!Number.isSafeInteger(id) || id <= 0) throw new ApiFailure('invalid_params');
  return id;
}

/**
 * Passkeys (WebAuthn), the family's routes and answers (`{options: {publicKey}}` from a begin; the credential JSON
 * as a finish's body), plus ours for several named passkeys per user: `PUT` and `DELETE /api/user/passkey/:id`, and
 * an optional `name` beside the credential on register/finish. Challenges live server-side (passkey-ceremonies).
 */
export async function passkeyRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { user: requireUser, admin } = guards(ctx);
  const critical = criticalLimit(ctx);
  const passkeys = ctx.repos.passkeys;

  app.get('/api/user/passkey', { preHandler: requireUser }, async (request) => {
    const list = await passkeys.listByUser(currentUser(request).id);
    const lastUsed = list
      .map((passkey) => passkey.lastUsedAt)
      .filter((time) => time !== null)
      .sort((a, b) => b.getTime() - a.getTime())[0];
    const view: PasskeyStatusView = {
      enabled: list.length > 0,
      last_used_at: lastUsed?.toISOString() ?? null,
      passkeys: list.map(passkeyView),
    };
    return ok(view);
  });

  app.post('/api/user/passkey/register/begin', { preHandler: requireUser }, async (request, reply) => {
    assertPasskeysEnabled(ctx);
    const options = await beginRegistration(ctx, request, reply, currentUser(request));
    return begun(options);
  });

  app.post('/api/user/passkey/register/finish', { preHandler: requireUser }, async (request, reply) => {
    assertPasskeysEnabled(ctx);
    const user = currentUser(request);
    const body = (request.body ?? {}) as Parameters<typeof finishRegistration>[4] & { name?: unknown };
    const count = (await passkeys.listByUser(user.id)).length;
    const name = readName(body.name, `Passkey ${count + 1}`);
    await finishRegistration(ctx, request, reply, user, body, name);
    return ok(undefined, messageFor(request, 'passkey_registered'));
  });

  app.post('/api/user/passkey/verify/begin', { preHandler: requireUser }, async (request, reply) => {
    assertPasskeysEnabled(ctx);
    const options = await beginAssertion(ctx, request, reply, currentUser(request));
    return begun(options);
  });

  app.post('/api/user/passkey/verify/finish', { preHandler: requireUser }, async (request, reply) => {
    assertPasskeysEnabled(ctx);
    const body = (request.body ?? {}) as Parameters<typeof finishAssertion>[4];
    await finishAssertion(ctx, request, reply, currentUser(request), body);
    return ok(undefined, messageFor(request, 'passkey_verified'));
  });

  app.delete('/api/user/passkey', { preHandler: requireUser }, async (request) => {
    await passkeys.deleteAllOfUser(currentUser(request).id);
    return ok(undefined, messageFor(request, 'passkey_removed'));
  });

  app.put('/api/user/passkey/:id', { preHandler: requireUser }, async (request) => {
    const name = readName((request.body as { name?: unknown } | null)?.name, '');
    if (!name) throw new ApiFailure('passkey_name_invalid');
    if (!(await passkeys.rename(currentUser(request).id, readId(request.params), name))) {
      throw new ApiFailure('passkey_not_found');
    }
    return ok(undefined, messageFor(request, 'passkey_renamed'));
  });

  app.delete('/api/user/passkey/:id', { preHandler: requireUser }, async (request) => {
    if (!(await passkeys.deleteOne(currentUser(request).id, readId(request.params)))) {
      throw new ApiFailure('passkey_not_found');
    }
    return ok(undefined, messageFor(request, 'passkey_removed'));
  });

  app.post('/api/user/passkey/login/begin', { preHandler: critical }, async (request, reply) => {
    assertPasskeysEnabled(ctx);
    const options = await beginAssertion(ctx, request, reply, null);
    return begun(options);
  });

  app.post('/api/user/passkey/login/finish', { preHandler: critical }, async (request, reply) => {
    assertPasskeysEnabled(ctx);
    const body = (request.body ?? {}) as Parameters<typeof finishAssertion>[4];
    const passkey = await finishAssertion(ctx, request, reply, null, body);
    const user = await ctx.repos.users.findById(passkey.userId);
    if (!user || user.deleted_at !== null) throw new ApiFailure('passkey_verification_failed');
    if (user.status !== UserStatus.Enabled) throw new ApiFailure('user_banned');
    return finishLogin(ctx, request, reply, user);
  });

  app.delete('/api/user/:id/reset_passkey', { preHandler: admin }, async (request) => {
    const actor = currentUser(request);
    const target = await ctx.repos.users.findById(readId(request.params));
    if (!target) throw new ApiFailure('user_not_found');
    if (target.role >= actor.role && actor.role < Role.Root) throw new ApiFailure('user_same_or_higher');
    const removed = await passkeys.deleteAllOfUser(target.id);
    if (removed === 0) throw new ApiFailure('passkey_not_registered');
    const changes = [{ field: 'passkeys', before: removed, after: 0 }];
    await recordAudit(ctx, request, [{ action: 'user.update', targetType: 'user', targetId: target.id, changes }]);
    return ok(undefined, messageFor(request, 'passkey_reset'));
  });
}
