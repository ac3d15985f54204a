import { FRESH_INSTALL_OPTIONS, Role, type SetupState, setupModeSchema, setupSchema } from '@gateway/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hashPassword } from '../auth/password.js';
import { finishSetup, setupTokenMatches } from '../auth/setup-token.js';
import type { AppContext } from '../context.js';
import { nowSeconds } from '../db/sql-helpers.js';
import { ApiFailure, messageFor, ok } from '../http/envelope.js';
import { parseBody } from '../http/validation.js';

const ROOT_INITIAL_QUOTA = 100_000_000;

export async function setupRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get('/api/setup', async () => {
    const state: SetupState = {
      status: ctx.setup.done,
      root_init: await ctx.repos.users.existsWithRoleAtLeast(Role.Root),
      database_type: ctx.db.dialect,
      setup_token_required: !ctx.setup.done && ctx.setup.token !== null,
    };
    return ok(state);
  });

  app.post('/api/setup', { bodyLimit: 16 * 1024 }, async (request) => {
    if (ctx.setup.done) throw new ApiFailure('setup_done_already');
    checkSetupToken(ctx, request);
    // With a root account already there (an imported database), only the usage mode is chosen: the console hides
    // the account fields and sends them empty.
    const rootExists = await ctx.repos.users.existsWithRoleAtLeast(Role.Root);
    const input = rootExists
      ? { ...parseBody(setupModeSchema, request.body), username: '', password: '' }
      : parseBody(setupSchema, request.body);
    const passwordHash = rootExists ? '' : await hashPassword(input.password);
    const now = nowSeconds();
    // The setups row has a fixed primary key: of two concurrent first-run requests (even on two nodes) only one
    // transaction can commit, so setup can never run twice.
    let freshInstall = false;
    try {
      await ctx.db.inTransaction(async (trx) => {
        await ctx.repos.setups.recordFirst(trx, ctx.config.version, now);
        const rootExists = await ctx.repos.users.existsWithRoleAtLeast(Role.Root, trx);
        freshInstall = !rootExists;
        if (!rootExists) {
          await ctx.repos.users.insertIn(trx, {
            username: input.username,
            password: passwordHash,
            // The family writes 'Root User' here, which the console then shows for an admin named "admin".
            display_name: input.username,
            role: Role.Root,
            quota: ROOT_INITIAL_QUOTA,
            created_at: now,
          });
        }
      });
    } catch (error) {
      if (await ctx.repos.setups.isDone()) {
        finishSetup(ctx.setup);
        throw new ApiFailure('setup_done_already');
      }
      throw error;
    }
    // Only a database this setup created its root in is a fresh install: a family database keeps its options.
    if (freshInstall) {
      for (const [key, value] of Object.entries(FRESH_INSTALL_OPTIONS)) await ctx.options.set(key, value);
    }
    await ctx.options.set('SelfUseModeEnabled', String(input.SelfUseModeEnabled));
    await ctx.options.set('DemoSiteEnabled', String(input.DemoSiteEnabled));
    finishSetup(ctx.setup);
    return ok(undefined, messageFor(request, 'setup_success'));
  });
}

/** The one-time token (auth/setup-token.ts), as `setup_token` in the body or the `X-Setup-Token` header. */
function checkSetupToken(ctx: AppContext, request: FastifyRequest): void {
  const expected = ctx.setup.token;
  if (!expected) return;
  const body = request.body as { setup_token?: unknown } | null | undefined;
  const given = body?.setup_token ?? request.headers['x-setup-token'];
  if (typeof given !== 'string' || !given.trim()) throw new ApiFailure('setup_token_required');
  if (!setupTokenMatches(expected.value, given)) throw new ApiFailure('setup_token_invalid');
}
