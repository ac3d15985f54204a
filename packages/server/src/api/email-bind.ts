import { emailBindSchema } from '@gateway/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { criticalLimit } from '../auth/critical-limit.js';
import { currentUser, guards } from '../auth/guard.js';
import type { AppContext } from '../context.js';
import { ApiFailure, messageFor, ok } from '../http/envelope.js';
import { parseBody } from '../http/validation.js';
import { assertEmailAllowed } from '../services/accounts/email-restrictions.js';
import { verificationCodes } from '../services/accounts/verification-codes.js';

/**
 * A signed-in user binds (or changes) their e-mail with a code from `GET /api/verification`. Spec 000 calls it
 * with GET and query parameters; newer clients of the family POST a body, so both are served.
 */
export async function emailBindRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { user: requireUser } = guards(ctx);
  const codes = verificationCodes(ctx);

  const bind = async (request: FastifyRequest) => {
    const user = currentUser(request);
    const source = request.method === 'GET' ? request.query : request.body;
    const { email, code } = parseBody(emailBindSchema, source);
    assertEmailAllowed(ctx.options, email);
    if (await ctx.repos.users.emailTaken(email, user.id)) throw new ApiFailure('email_taken');
    if (!(await codes.consume('email_verification', email, code))) throw new ApiFailure('verification_code_invalid');
    await ctx.repos.users.update(user.id, { email });
    await ctx.authCache.dropUser(user.id);
    return ok(undefined, messageFor(request, 'email_bound'));
  };

  const options = { preHandler: [criticalLimit(ctx), requireUser] };
  app.get('/api/oauth/email/bind', options, bind);
  app.post('/api/oauth/email/bind', { ...options, bodyLimit: 16 * 1024 }, bind);
}
