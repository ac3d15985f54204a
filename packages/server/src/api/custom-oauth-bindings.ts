import { Role, type UserOAuthBindingView } from '@gateway/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { currentUser, guards } from '../auth/guard.js';
import type { AppContext } from '../context.js';
import type { CustomBinding } from '../db/repos/custom-oauth.js';
import { ApiFailure, messageFor, ok } from '../http/envelope.js';

const view = (binding: CustomBinding): UserOAuthBindingView => ({
  provider_id: binding.providerId,
  provider_name: binding.providerName,
  provider_slug: binding.providerSlug,
  provider_icon: binding.providerIcon,
  provider_user_id: binding.providerUserId,
});

function idParam(request: FastifyRequest, name: string): number {
  const id = Number((request.params as Record<string, string>)[name]);
  if (!Number.isInteger(id) || id <= 0) throw new ApiFailure('invalid_params');
  return id;
}

/**
 * An account's custom-provider bindings (the family's routes): the user's own on the personal page, and any
 * user's for an admin acting on a lower role (root on anyone). Unbinding is allowed as the family allows it; the
 * password, e-mail and the other providers stay ways in.
 */
export async function customOAuthBindingRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { user: signedIn, admin } = guards(ctx);
  const repo = ctx.repos.customOAuth;

  const unbind = async (userId: number, providerId: number) => {
    if (!(await repo.unbind(userId, providerId))) throw new ApiFailure('custom_oauth_not_bound');
    await ctx.authCache.dropUser(userId);
  };
  const targetOf = async (request: FastifyRequest) => {
    const actor = currentUser(request);
    const target = await ctx.repos.users.findById(idParam(request, 'id'));
    if (!target) throw new ApiFailure('user_not_found');
    if (target.role >= actor.role && actor.role < Role.Root) throw new ApiFailure('user_same_or_higher');
    return target;
  };

  app.get('/api/user/oauth/bindings', { preHandler: signedIn }, async (request) =>
    ok((await repo.bindingsOf(currentUser(request).id)).map(view)),
  );
  app.delete('/api/user/oauth/bindings/:provider_id', { preHandler: signedIn }, async (request) => {
    await unbind(currentUser(request).id, idParam(request, 'provider_id'));
    return ok(undefined, messageFor(request, 'custom_oauth_unbound'));
  });

  app.get('/api/user/:id/oauth/bindings', { preHandler: admin }, async (request) => {
    const target = await targetOf(request);
    return ok((await repo.bindingsOf(target.id)).map(view));
  });
  app.delete('/api/user/:id/oauth/bindings/:provider_id', { preHandler: admin }, async (request) => {
    const target = await targetOf(request);
    await unbind(target.id, idParam(request, 'provider_id'));
    return ok(undefined, messageFor(request, 'custom_oauth_unbound'));
  });
}
