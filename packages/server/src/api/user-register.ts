import { emailQuerySchema, formatQuota, LogType, registerSchema } from '@gateway/shared';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { criticalLimit } from '../auth/critical-limit.js';
import { hashPassword } from '../auth/password.js';
import type { AppContext } from '../context.js';
import type { NewLog, UserRow } from '../db/schema.js';
import { insertReturningId, nowSeconds } from '../db/sql-helpers.js';
import { ApiFailure, messageFor, ok } from '../http/envelope.js';
import { parseBody } from '../http/validation.js';
import { assertEmailAllowed } from '../services/email-restrictions.js';
import { turnstileCheck } from '../services/turnstile.js';
import { verificationCodes } from '../services/verification-codes.js';

/**
 * `POST /api/user/register` (spec 000 §5): the operator's switches first, then the form, then the e-mail code
 * when verification is on. An invitation code links the new user to the inviter and pays both the configured
 * rewards; each reward is a system log line so the people involved can see where quota came from.
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

      const inviter = input.aff_code ? await users.findByAffCode(input.aff_code) : undefined;
      const rewards = {
        newUser: ctx.options.number('QuotaForNewUser'),
        invitee: inviter ? ctx.options.number('QuotaForInvitee') : 0,
        inviter: inviter ? ctx.options.number('QuotaForInviter') : 0,
      };
      const password = await hashPassword(input.password);
      let userId: number;
      try {
        userId = await ctx.db.kysely.transaction().execute(async (trx) => {
          const id = await insertReturningId(trx, ctx.db.dialect, 'users', {
            username: input.username,
            password,
            display_name: input.username,
            email,
            quota: rewards.newUser + rewards.invitee,
            inviter_id: inviter?.id ?? 0,
            created_at: nowSeconds(),
          });
          if (inviter) {
            await trx
              .updateTable('users')
              .set({
                aff_count: sql`aff_count + 1`,
                aff_quota: sql`aff_quota + ${rewards.inviter}`,
                aff_history_quota: sql`aff_history_quota + ${rewards.inviter}`,
              })
              .where('id', '=', inviter.id)
              .execute();
          }
          return id;
        });
      } catch (error) {
        // Two people racing for one name: the unique index decides, the loser hears the usual answer.
        if (await users.usernameTaken(input.username)) throw new ApiFailure('register_username_taken');
        throw error;
      }
      await ctx.repos.logs.insertMany(rewardLogs(ctx, { id: userId, username: input.username }, inviter, rewards));
      return ok(undefined, messageFor(request, 'register_success'));
    },
  );
}

function rewardLogs(
  ctx: AppContext,
  user: { id: number; username: string },
  inviter: UserRow | undefined,
  rewards: { newUser: number; invitee: number; inviter: number },
): NewLog[] {
  const display = { quotaPerUnit: ctx.options.number('QuotaPerUnit'), displayInCurrency: true };
  const line = (to: { id: number; username: string }, quota: number, content: string): NewLog => ({
    user_id: to.id,
    username: to.username,
    created_at: nowSeconds(),
    type: LogType.System,
    quota,
    content: `${content} ${formatQuota(quota, display)}`,
  });
  const logs: NewLog[] = [];
  if (rewards.newUser > 0) logs.push(line(user, rewards.newUser, '新用户注册赠送'));
  if (rewards.invitee > 0) logs.push(line(user, rewards.invitee, '使用邀请码赠送'));
  if (inviter && rewards.inviter > 0) logs.push(line(inviter, rewards.inviter, '邀请用户赠送'));
  return logs;
}
