import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { languageOf } from '../../http/envelope.js';
import { authenticateRelay } from '../admission/authenticate.js';

// An unlimited token reports this many quota units as its limit (family convention).
const UNLIMITED_LIMIT = 100_000_000;

/** Remaining and used quota as the OpenAI billing endpoints report them: the token's or the user's. */
async function figures(ctx: AppContext, request: FastifyRequest) {
  const caller = await authenticateRelay(ctx, request, languageOf(request));
  await ctx.ledger.flush();
  const perUnit = ctx.options.number('QuotaPerUnit') || 500_000;
  const { token, user } = caller;
  if (ctx.options.bool('DisplayTokenStatEnabled')) {
    const row = (await ctx.repos.tokens.findByKey(token.key)) ?? token;
    const limit = token.unlimited_quota ? UNLIMITED_LIMIT : row.remain_quota + row.used_quota;
    return {
      limit: limit / perUnit,
      used: row.used_quota / perUnit,
      expiry: token.expired_time === -1 ? 0 : token.expired_time,
    };
  }
  const row = (await ctx.repos.users.findById(user.id)) ?? user;
  return { limit: (row.quota + row.used_quota) / perUnit, used: row.used_quota / perUnit, expiry: 0 };
}

/** `GET /dashboard/billing/subscription` (and `/v1/…`): what OpenAI-era tools show as the account's limit. */
export async function billingSubscription(ctx: AppContext, request: FastifyRequest) {
  const { limit, expiry } = await figures(ctx, request);
  return {
    object: 'billing_subscription',
    has_payment_method: true,
    soft_limit_usd: limit,
    hard_limit_usd: limit,
    system_hard_limit_usd: limit,
    access_until: expiry,
  };
}

/** `GET /dashboard/billing/usage`: total usage in cents. */
export async function billingUsage(ctx: AppContext, request: FastifyRequest) {
  const { used } = await figures(ctx, request);
  return { object: 'list', total_usage: used * 100 };
}
