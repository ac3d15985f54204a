import { formatQuota, LogType, logFacts } from '@gateway/shared';
import { type Kysely, sql } from 'kysely';
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
 * Marks a task failed and gives its quota back, exactly once: `markFailed` must be a conditional update that
 * changes the row only while it is not yet terminal, and the refund happens in the same transaction only when it
 * did. Two pollers (or a poller and a timeout sweep) racing on one task therefore refund it once.
 */
export async function failAndRefund(
  ctx: AppContext,
  markFailed: (trx: Kysely<Database>) => Promise<boolean>,
  refund: { payer: TaskPayer; quota: number; what: string; fact: { kind: 'drawing' | 'async'; taskId: string } },
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
        other: logFacts(refund.fact.kind === 'drawing' ? 'task_refund_drawing' : 'task_refund_async', {
          task_id: refund.fact.taskId,
          quota,
        }),
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
