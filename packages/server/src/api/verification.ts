import { emailQuerySchema } from '@gateway/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { ApiFailure, languageOf, messageFor, ok } from '../http/envelope.js';
import { clientIp } from '../http/request-ip.js';
import { parseBody } from '../http/validation.js';
import { assertEmailAllowed } from '../services/accounts/email-restrictions.js';
import { turnstileCheck } from '../services/accounts/turnstile.js';
import { newVerificationCode, verificationCodes } from '../services/accounts/verification-codes.js';
import { assertSmtpConfigured, verificationMail } from '../services/notifications/mailer.js';
import { sendMail } from '../services/notifications/notify.js';

// The family's e-mail verification limit: two mails per IP per 30 seconds, matching the console's countdown.
const MAILS_PER_WINDOW = 2;
const WINDOW_SECONDS = 30;

/**
 * `GET /api/verification?email=&turnstile=`: mails a six-digit code that proves the address, for registration
 * and for binding an e-mail to an existing account. The operator's domain and alias rules are enforced here and
 * again where the code is used.
 */
export async function verificationRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const codes = verificationCodes(ctx);

  const mailLimit = async (request: FastifyRequest) => {
    if (!ctx.config.criticalRateLimit.enabled) return;
    const key = `email-verification:${clientIp(request, ctx.config.trustedProxies)}`;
    if (!(await ctx.limiter.hit(key, MAILS_PER_WINDOW, WINDOW_SECONDS))) {
      throw new ApiFailure('verification_too_frequent', undefined, 429, WINDOW_SECONDS);
    }
  };

  app.get('/api/verification', { preHandler: [mailLimit, turnstileCheck(ctx)] }, async (request) => {
    const { email } = parseBody(emailQuerySchema, request.query);
    assertEmailAllowed(ctx.options, email);
    if (await ctx.repos.users.emailTaken(email)) throw new ApiFailure('email_taken');
    assertSmtpConfigured(ctx.options);
    const code = newVerificationCode();
    await codes.save('email_verification', email, code);
    const mail = verificationMail(ctx.options, code, languageOf(request));
    try {
      await sendMail(ctx.options, email, mail.subject, mail.html);
    } catch (error) {
      request.log.error({ err: error, reqId: request.id }, 'verification mail failed');
      throw new ApiFailure('mail_send_failed');
    }
    return ok(undefined, messageFor(request, 'verification_sent'));
  });
}
