import { createHash, randomBytes } from 'node:crypto';
import { TopUpStatus } from '@gateway/shared';
import { creditTopUp } from '../../billing/credits.js';
import type { AppContext } from '../../context.js';
import type { TopUpRow } from '../../db/schema.js';

/**
 * What a card provider's webhook did to an order: `credited` this delivery completed it; `settled` it was already
 * complete (a replay or the loser of a race: nothing credited); `rejected` no such order of this provider.
 */
export type CardOutcome = 'credited' | 'settled' | 'rejected';

/** The family's order reference for card checkouts: `ref_` and 40 hex characters, unguessable and unique. */
export function cardTradeNo(userId: number): string {
  const seed = `${userId}-${Date.now()}-${randomBytes(16).toString('hex')}`;
  return `ref_${createHash('sha1').update(seed).digest('hex')}`;
}

/** A pending order of a card provider, written before its checkout is created (the webhook completes it). */
export async function insertCardOrder(
  ctx: AppContext,
  order: { userId: number; amount: number; money: number; provider: string },
): Promise<string> {
  const tradeNo = cardTradeNo(order.userId);
  await ctx.repos.topUps.insert({
    user_id: order.userId,
    amount: order.amount,
    money: order.money,
    trade_no: tradeNo,
    payment_method: order.provider,
    payment_provider: order.provider,
    status: TopUpStatus.Pending,
  });
  return tradeNo;
}

/**
 * Completes the provider's order named by a verified webhook and credits it, at most once however often the
 * webhook is delivered (billing/credits.ts updates pending → success conditionally in the crediting transaction).
 */
export async function settleCardOrder(
  ctx: AppContext,
  tradeNo: string,
  provider: string,
  quotaOf: (order: TopUpRow) => number,
): Promise<CardOutcome> {
  const order = tradeNo ? await ctx.repos.topUps.findByTradeNo(tradeNo) : undefined;
  if (!order || order.payment_provider !== provider) return 'rejected';
  return (await creditTopUp(ctx, order, quotaOf(order))) ? 'credited' : 'settled';
}
