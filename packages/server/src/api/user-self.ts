import type { FastifyInstance } from 'fastify';
import { currentUser, guards } from '../auth/guard.js';
import type { AppContext } from '../context.js';
import { ApiFailure, ok } from '../http/envelope.js';
import { allGroups, usableGroups } from '../services/accounts/groups.js';
import { selfView } from './user-session.js';

/** The caller's groups and models: what the token form and the playground offer. */
export async function userSelfRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { user: requireUser, admin } = guards(ctx);

  app.get('/api/user/self/groups', { preHandler: requireUser }, async (request) =>
    ok(usableGroups(ctx.options, currentUser(request).group)),
  );

  app.get('/api/user/models', { preHandler: requireUser }, async (request) => {
    const groups = Object.keys(usableGroups(ctx.options, currentUser(request).group));
    return ok(await ctx.repos.abilities.enabledModels(groups));
  });

  app.get('/api/group/', { preHandler: admin }, async () => ok(allGroups(ctx.options)));

  // Admin view of one user (the log page's user detail). Never the password hash or access token.
  app.get('/api/user/:id', { preHandler: admin }, async (request) => {
    const id = Number((request.params as { id: string }).id);
    const user = Number.isInteger(id) ? await ctx.repos.users.findById(id) : undefined;
    if (!user) throw new ApiFailure('user_not_found');
    return ok(selfView(user));
  });
}
