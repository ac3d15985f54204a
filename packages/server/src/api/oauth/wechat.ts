import type { FastifyInstance, FastifyRequest } from 'fastify';
import { criticalLimit } from '../../auth/critical-limit.js';
import { currentUser, guards } from '../../auth/guard.js';
import type { AppContext } from '../../context.js';
import { ApiFailure, ok } from '../../http/envelope.js';
import { accountForSignIn, bindIdentity } from '../../services/accounts/oauth/accounts.js';
import { wechatAccount, wechatIdentity } from '../../services/accounts/oauth/wechat.js';
import { finishSignIn, queryText } from './sign-in.js';

/** WeChat through the operator's WeChat server: the code the official account replied with, typed in the QR dialog. */
export async function wechatRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const critical = criticalLimit(ctx);
  const { user: requireUser } = guards(ctx);

  const identityFrom = async (request: FastifyRequest) => {
    if (!wechatAccount.enabled(ctx)) throw new ApiFailure('oauth_provider_disabled', { provider: wechatAccount.label });
    const code = queryText(request, 'code') || String((request.body as { code?: unknown } | undefined)?.code ?? '');
    if (!code.trim()) throw new ApiFailure('wechat_code_required');
    return wechatIdentity(ctx, code.trim().slice(0, 64));
  };

  app.get('/api/oauth/wechat', { preHandler: critical }, async (request, reply) => {
    const identity = await identityFrom(request);
    const user = await accountForSignIn(ctx, wechatAccount, identity, queryText(request, 'aff').slice(0, 32));
    return finishSignIn(ctx, request, reply, user);
  });

  // Spec 000 names GET; the family's later versions POST. Both bind the signed-in user.
  const bind = async (request: FastifyRequest) => {
    const identity = await identityFrom(request);
    await bindIdentity(ctx, wechatAccount, currentUser(request), identity);
    return ok(undefined, 'bind');
  };
  app.get('/api/oauth/wechat/bind', { preHandler: [critical, requireUser] }, bind);
  app.post('/api/oauth/wechat/bind', { preHandler: [critical, requireUser], bodyLimit: 4096 }, bind);
}
