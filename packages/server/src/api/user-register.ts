import { emailQuerySchema, registerSchema } from '@gateway/shared';
import type { FastifyInstance } from 'fastify';
import { criticalLimit } from '../auth/critical-limit.js';
import { hashPassword } from '../auth/password.js';
import type { AppContext } from '../context.js';
import { ApiFailure, messageFor, ok } from '../http/envelope.js';
import { parseBody } from '../http/validation.js';
import { assertEmailAllowed } from '../services/accounts/email-restrictions.js';
import { insertInvitedAccount } from '../services/accounts/invited-account.js';
import { turnstileCheck } from '../services/accounts/turnstile.js';
import { verificationCodes } from '../services/accounts/verification-codes.js';

/**
 * `POST /api/user/register` (spec 000 §5): the operator's switches first, then the form, then the e-mail code
 * when verification is on. An invitation code links the new user to the inviter and pays both rewards.
 */
export async function userRegisterRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const users = ctx.repos.users;
  const codes = verificationCodes(ctx);

  app.post(
    '/api/user/register',
    { preHandler: [criticalLimit(ctx), turnstileCheck(ctx)], bodyLimit: 16 * 1024 },
    async (request) => {
      if (!ctx.options.bool('RegisterEnabled')) throw new ApiFailure('register_disabled');
      if (!ctx.options.bool('PasswordRegisterEnabled')) throw new ApiFailure('password_register_disabled');
      const input = parseBody(registerSchema, request.body);

      // An address is stored only when it was proven by a code: otherwise anyone could claim someone else's
      // mailbox and later receive its password reset links.
      let email = '';
      if (ctx.options.bool('EmailVerificationEnabled')) {
        if (!input.email || !input.verification_code) throw new ApiFailure('register_email_required');
        email = parseBody(emailQuerySchema, { email: input.email }).email;
        assertEmailAllowed(ctx.options, email);
      }
      if (await users.usernameTaken(input.username)) throw new ApiFailure('register_username_taken');
      if (email && (await users.emailTaken(email))) throw new ApiFailure('email_taken');
      // Last of the checks, so a refused name does not burn the code the person just received.
      if (email && !(await codes.consume('email_verification', email, input.verification_code))) {
        throw new ApiFailure('verification_code_invalid');
      }

      const password = await hashPassword(input.password);
      try {
        await insertInvitedAccount(
          ctx,
          { username: input.username, password, display_name: input.username, email },
          input.aff_code,
        );
      } catch (error) {
        // Two people racing for one name: the unique index decides, the loser hears the usual answer.
        if (await users.usernameTaken(input.username)) throw new ApiFailure('register_username_taken');
        throw error;
      }
      return ok(undefined, messageFor(request, 'register_success'));
    },
  );
}
