import { RedemptionStatus, redeemSchema } from '@gateway/shared';
import type { FastifyInstance } from 'fastify';
import { criticalLimit } from '../auth/critical-limit.js';
import { currentUser, guards } from '../auth/guard.js';
import { redeemCode } from '../billing/credits.js';
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

  /** Redeems a code: checked here, credited once by billing/credits.ts however many redeem it at once. */
  app.post('/api/user/topup', { preHandler: [requireUser, critical] }, async (request) => {
    const user = currentUser(request);
    const { key } = parseBody(redeemSchema, request.body);
    const code = await ctx.repos.redemptions.findByKey(key);
    if (!code) throw new ApiFailure('redemption_invalid');
    if (code.status === RedemptionStatus.Used) throw new ApiFailure('redemption_used');
    if (code.status === RedemptionStatus.Disabled) throw new ApiFailure('redemption_disabled');
    if (code.expired_time !== 0 && code.expired_time < nowSeconds()) throw new ApiFailure('redemption_expired');
    const claimed = await redeemCode(ctx, user, code);
    if (!claimed) throw new ApiFailure('redemption_used');
    return ok(code.quota, messageFor(request, 'redemption_success'));
  });
}
