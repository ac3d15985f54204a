import { formatQuota, LogType } from '@gateway/shared';
import { type Kysely, sql } from 'kysely';
import { maybeWarnLowQuota } from '../../billing/quota-warning.js';
import type { CachedChannel } from '../../cache/channel-cache.js';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { nowSeconds } from '../../db/sql-helpers.js';
import type { Billing } from '../reserve.js';

/**
 * Who paid for a task, kept with the task so a later failure (found by the poller, possibly on another node and
 * after a restart) can give the money back to the same user and token.
 */
export interface TaskPayer {
  user_id: number;
  token_id: number;
  token_unlimited: boolean;
}

export function payerOf(billing: Billing): TaskPayer {
  const { token, user } = billing.caller;
  return { user_id: user.id, token_id: token.id, token_unlimited: token.unlimited_quota === 1 };
}

export function readPayer(json: string | null | undefined, userId: number): TaskPayer {
  try {
    const parsed = json ? (JSON.parse(json) as { payer?: Partial<TaskPayer> }) : {};
    const payer = parsed.payer ?? {};
    return {
      user_id: userId,
      token_id: Number(payer.token_id ?? 0),
      token_unlimited: payer.token_unlimited === true,
    };
  } catch {
    return { user_id: userId, token_id: 0, token_unlimited: false };
  }
}

/**
 * An accepted task costs exactly what was reserved (a fixed per-call price): the reservation becomes used quota on
 * user, token and channel, and a consume log names the action and the upstream task id.
 */
export function chargeTask(
  ctx: AppContext,
  billing: Billing,
  channel: CachedChannel,
  detail: { action: string; taskId: string; requestId: string; startedAt: number },
): number {
  const { caller, reserved: quota } = billing;
  const { user, token } = caller;
  const before = ctx.ledger.available('user', user.id) + quota;
  ctx.ledger.settle(user.id, token.id || null, quota, quota, channel.id, token.unlimited_quota === 1);
  maybeWarnLowQuota(ctx, user, before, ctx.ledger.available('user', user.id));
  ctx.quotaExporter.record(user.id, user.username, billing.model, quota, 0);
  if (ctx.options.bool('LogConsumeEnabled')) {
    const pricing = billing.pricing;
    const price = pricing.kind === 'call' ? `模型价格 ${pricing.price}` : `模型倍率 ${pricing.modelRatio}`;
    ctx.logWriter.append({
      user_id: user.id,
      created_at: nowSeconds(),
      type: LogType.Consume,
      content: `${price}，分组倍率 ${billing.groupRatio}，操作 ${detail.action}，任务 ID ${detail.taskId}`,
      username: user.username,
      token_name: token.name,
      token_id: token.id,
      model_name: billing.model,
      quota,
      prompt_tokens: 0,
      completion_tokens: 0,
      use_time: Math.round((performance.now() - detail.startedAt) / 1000),
      is_stream: 0,
      channel_id: channel.id,
      channel_name: channel.name,
      group: caller.group,
      request_id: detail.requestId,
      other: JSON.stringify({
        model_price: pricing.kind === 'call' ? pricing.price : -1,
        group_ratio: billing.groupRatio,
        task_id: detail.taskId,
        action: detail.action,
        admin_info: { use_channel: [String(channel.id)] },
      }),
    });
  }
  return quota;
}

/**
 * Marks a task failed and gives its quota back, exactly once: `markFailed` must be a conditional update that
 * changes the row only while it is not yet terminal, and the refund happens in the same transaction only when it
 * did. Two pollers (or a poller and a timeout sweep) racing on one task therefore refund it once.
 */
export async function failAndRefund(
  ctx: AppContext,
  markFailed: (trx: Kysely<Database>) => Promise<boolean>,
  refund: { payer: TaskPayer; quota: number; what: string },
): Promise<boolean> {
  const { payer, quota } = refund;
  // Unlimited tokens are charged too (their remain_quota counts down for the record), so they get it back too.
  const tokenRefund = payer.token_id > 0;
  const changed = await ctx.db.kysely.transaction().execute(async (trx) => {
    if (!(await markFailed(trx))) return false;
    if (quota <= 0) return true;
    await trx
      .updateTable('users')
      .set({ quota: sql`quota + ${quota}`, used_quota: sql`used_quota - ${quota}` })
      .where('id', '=', payer.user_id)
      .execute();
    if (tokenRefund) {
      await trx
        .updateTable('tokens')
        .set({ remain_quota: sql`remain_quota + ${quota}`, used_quota: sql`used_quota - ${quota}` })
        .where('id', '=', payer.token_id)
        .execute();
    }
    const owner = await trx.selectFrom('users').select('username').where('id', '=', payer.user_id).executeTakeFirst();
    const display = { quotaPerUnit: ctx.options.number('QuotaPerUnit'), displayInCurrency: true };
    await trx
      .insertInto('logs')
      .values({
        user_id: payer.user_id,
        username: owner?.username ?? '',
        created_at: nowSeconds(),
        type: LogType.System,
        quota: 0,
        content: `${refund.what}，补偿 ${formatQuota(quota, display)}`,
        other: '',
      })
      .execute();
    return true;
  });
  if (changed && quota > 0) {
    // The database already holds the refund; the ledger's in-memory balances follow it.
    ctx.ledger.credit('user', payer.user_id, quota);
    if (tokenRefund) ctx.ledger.credit('token', payer.token_id, quota);
  }
  return changed;
}
