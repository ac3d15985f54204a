import { randomBytes } from 'node:crypto';
import { emailQuerySchema, passwordResetConfirmSchema, RESET_PASSWORD_LENGTH } from '@gateway/shared';
import type { FastifyInstance } from 'fastify';
import { criticalLimit } from '../auth/critical-limit.js';
import { hashPassword } from '../auth/password.js';
import type { AppContext } from '../context.js';
import { ApiFailure, languageOf, messageFor, ok } from '../http/envelope.js';
import { parseBody } from '../http/validation.js';
import { turnstileCheck } from '../services/accounts/turnstile.js';
import { verificationCodes } from '../services/accounts/verification-codes.js';
import { assertSmtpConfigured, resetMail } from '../services/notifications/mailer.js';
import { sendMail } from '../services/notifications/notify.js';
import { randomText } from './token.js';

/**
 * Password reset by mailed link (spec 001 "Password reset"). The request answers the same for an unknown address
 * as for a known one, and mails in the background, so neither the words nor the time tell whether an account
 * exists. The link's token is single use and expires with the verification codes.
 */
export async function passwordResetRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const codes = verificationCodes(ctx);
  const critical = criticalLimit(ctx);

  app.get('/api/reset_password', { preHandler: [critical, turnstileCheck(ctx)] }, async (request) => {
    const { email } = parseBody(emailQuerySchema, request.query);
    assertSmtpConfigured(ctx.options);
    const serverAddress = ctx.options.get('ServerAddress').replace(/\/+$/, '');
    // Never built from the Host header: a forged one would send the reset token to someone else's site.
    if (!serverAddress) throw new ApiFailure('reset_server_address_missing');
    const user = await ctx.repos.users.findByEmail(email);
    if (user) {
      const token = randomBytes(16).toString('hex');
      await codes.save('password_reset', email, token);
      const link = `${serverAddress}/user/reset?${new URLSearchParams({ email, token })}`;
      const mail = resetMail(ctx.options, link, languageOf(request));
      sendMail(ctx.options, email, mail.subject, mail.html).catch((error: unknown) => {
        request.log.error({ err: error, reqId: request.id }, 'password reset mail failed');
      });
    }
    return ok(undefined, messageFor(request, 'reset_mail_sent'));
  });

  app.post('/api/user/reset', { preHandler: critical, bodyLimit: 16 * 1024 }, async (request) => {
    const { email, token } = parseBody(passwordResetConfirmSchema, request.body);
    if (!(await codes.consume('password_reset', email, token))) throw new ApiFailure('reset_link_invalid');
    const user = await ctx.repos.users.findByEmail(email);
    if (!user) throw new ApiFailure('reset_link_invalid');
    const password = randomText(RESET_PASSWORD_LENGTH);
    await ctx.repos.users.update(user.id, { password: await hashPassword(password) });
    // Whoever knew the old password is signed out everywhere.
    await ctx.sessions.destroyAllOf(user.id);
    await ctx.authCache.dropUser(user.id);
    return ok(password, messageFor(request, 'reset_done'));
  });
}
