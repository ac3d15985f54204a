import type { FastifyInstance, FastifyRequest } from 'fastify';
import { criticalLimit } from '../../auth/critical-limit.js';
import { currentUser, guards } from '../../auth/guard.js';
import type { AppContext } from '../../context.js';
import { nowSeconds } from '../../db/sql-helpers.js';
import { ApiFailure, ok } from '../../http/envelope.js';
import { accountForSignIn, bindIdentity } from '../../services/accounts/oauth/accounts.js';
import {
  telegramAccount,
  telegramBotToken,
  telegramFields,
  verifyTelegramLogin,
} from '../../services/accounts/oauth/telegram.js';
import { finishSignIn, queryText } from './sign-in.js';

/** The Telegram login widget hands its signed data to these routes as query parameters. */
export async function telegramRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const critical = criticalLimit(ctx);
  const { user: requireUser } = guards(ctx);

  const identityFrom = (request: FastifyRequest) => {
    if (!telegramAccount.enabled(ctx)) {
      throw new ApiFailure('oauth_provider_disabled', { provider: telegramAccount.label });
    }
    const fields = telegramFields(request.query);
    // `aff` is ours, like `lang`: it must not take part in the signature check.
    delete fields.aff;
    return verifyTelegramLogin(fields, telegramBotToken(ctx), nowSeconds());
  };

  app.get('/api/oauth/telegram/login', { preHandler: critical }, async (request, reply) => {
    const identity = identityFrom(request);
    const user = await accountForSignIn(ctx, telegramAccount, identity, queryText(request, 'aff').slice(0, 32));
    return finishSignIn(ctx, request, reply, user);
  });

  app.get('/api/oauth/telegram/bind', { preHandler: [critical, requireUser] }, async (request) => {
    const identity = identityFrom(request);
    await bindIdentity(ctx, telegramAccount, currentUser(request), identity);
    return ok(undefined, 'bind');
  });
}
