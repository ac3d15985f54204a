import { formatQuota, LogType, logFacts, RedemptionStatus, redeemSchema, TopUpStatus } from '@gateway/shared';
import type { FastifyInstance } from 'fastify';
import { criticalLimit } from '../auth/critical-limit.js';
import { currentUser, guards } from '../auth/guard.js';
import type { AppContext } from '../context.js';
import { nowSeconds } from '../db/sql-helpers.js';
import { ApiFailure, messageFor, ok } from '../http/envelope.js';
import { readPaging } from '../http/paging.js';
import { parseBody } from '../http/validation.js';

export async function walletRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { user: requireUser } = guards(ctx);

  const critical = criticalLimit(ctx);

  // The caller's own top-up records (online orders in every state, and redeemed codes), newest first.
  app.get('/api/user/topup/self', { preHandler: requireUser }, async (request) => {
    const { page, pageSize, offset } = readPaging(request.query as Record<string, unknown>);
    const result = await ctx.repos.topUps.listForUser(currentUser(request).id, offset, pageSize);
    return ok({ items: result.items, total: result.total, page, page_size: pageSize });
  });

  /**
   * Redeems a code. The claim is a conditional update on the code's status inside the transaction that credits
   * the user, writes the top-up record and the log: of any number of concurrent redeemers (on any node, any
   * database) exactly one commits; the others change nothing.
   */
  app.post('/api/user/topup', { preHandler: [requireUser, critical] }, async (request) => {
    const user = currentUser(request);
    const { key } = parseBody(redeemSchema, request.body);
    const code = await ctx.repos.redemptions.findByKey(key);
    if (!code) throw new ApiFailure('redemption_invalid');
    if (code.status === RedemptionStatus.Used) throw new ApiFailure('redemption_used');
    if (code.status === RedemptionStatus.Disabled) throw new ApiFailure('redemption_disabled');
    if (code.expired_time !== 0 && code.expired_time < nowSeconds()) throw new ApiFailure('redemption_expired');
    const now = nowSeconds();
    const display = { quotaPerUnit: ctx.options.number('QuotaPerUnit'), displayInCurrency: true };
    const claimed = await ctx.db.kysely.transaction().execute(async (trx) => {
      if (!(await ctx.repos.redemptions.claim(trx, code.id, user.id))) return false;
      await ctx.repos.users.addQuotaIn(trx, user.id, code.quota);
      await trx
        .insertInto('top_ups')
        .values({
          user_id: user.id,
          amount: code.quota,
          money: 0,
          trade_no: `REDEEM${code.id}`,
          payment_method: 'redemption',
          create_time: now,
          complete_time: now,
          status: TopUpStatus.Success,
        })
        .execute();
      await trx
        .insertInto('logs')
        .values({
          user_id: user.id,
          username: user.username,
          created_at: now,
          type: LogType.TopUp,
          quota: code.quota,
          content: `通过兑换码充值 ${formatQuota(code.quota, display)}，兑换码ID ${code.id}`,
          other: logFacts('redeem', { quota: code.quota, code_id: code.id }),
        })
        .execute();
      return true;
    });
    if (!claimed) throw new ApiFailure('redemption_used');
    ctx.ledger.credit('user', user.id, code.quota);
    return ok(code.quota, messageFor(request, 'redemption_success'));
  });
}
