import { formatQuota, type LogFactKey, LogType, logFacts } from '@gateway/shared';
import type { AppContext } from '../context.js';
import { nowSeconds } from '../db/sql-helpers.js';
import type { Trx } from '../db/unit-of-work.js';

/**
 * Who paid for an asynchronous task, kept with the task so its end (found by the poller, possibly on another node
 * and after a restart) charges or gives back to the same user and token.
 */
export interface TaskPayer {
  user_id: number;
  token_id: number;
  token_unlimited: boolean;
}

/** The payer stored in a task's JSON column (`properties` for drawings, `private_data` for the others). */
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

export interface TaskMoney {
  payer: TaskPayer;
  /** Quota moved: > 0 charged on top of what the submit paid, < 0 given back. */
  delta: number;
  /** The family's Chinese line for the log (old clients read it) and the facts the console renders. */
  content: string;
  fact: { key: LogFactKey; params: Record<string, string | number> };
}

/**
 * Ends a task and moves its money exactly once: `end` must be a conditional update that changes the row only while
 * the task is not yet terminal, and the money moves in the same transaction only when it did. Two pollers (or a
 * poller, a reader refreshing the task and a timeout sweep) racing on one task therefore settle it once. Returns
 * whether this call ended the task.
 */
export async function endTask(
  ctx: AppContext,
  end: (trx: Trx) => Promise<boolean>,
  money: TaskMoney | null,
): Promise<boolean> {
  const delta = money?.delta ?? 0;
  const payer = money?.payer;
  // Unlimited tokens are charged too (their remain_quota counts down for the record), so they settle too.
  const onToken = payer !== undefined && payer.token_id > 0;
  const owner = payer && delta !== 0 ? await ctx.repos.users.findById(payer.user_id) : undefined;
  const ended = await ctx.db.inTransaction(async (trx) => {
    if (!(await end(trx))) return false;
    if (!payer || !money || delta === 0) return true;
    await ctx.repos.users.chargeIn(trx, payer.user_id, delta);
    if (onToken) await ctx.repos.tokens.chargeIn(trx, payer.token_id, delta);
    await ctx.repos.creditLogs.insertIn(trx, {
      user_id: payer.user_id,
      username: owner?.username ?? '',
      created_at: nowSeconds(),
      type: LogType.System,
      quota: 0,
      content: money.content,
      other: logFacts(money.fact.key, money.fact.params),
    });
    return true;
  });
  if (ended && payer && delta !== 0) {
    // The database already holds the change; the ledger's in-memory balances follow it.
    ctx.ledger.credit('user', payer.user_id, -delta);
    if (onToken) ctx.ledger.credit('token', payer.token_id, -delta);
  }
  return ended;
}

/** The refund of a failed task: what it paid, back, with the family's log line. */
export function taskRefund(
  ctx: AppContext,
  payer: TaskPayer,
  quota: number,
  what: string,
  fact: { key: 'task_refund_drawing' | 'task_refund_async'; taskId: string },
): TaskMoney | null {
  if (quota <= 0) return null;
  const display = { quotaPerUnit: ctx.options.number('QuotaPerUnit'), displayInCurrency: true };
  return {
    payer,
    delta: -quota,
    content: `${what}，补偿 ${formatQuota(quota, display)}`,
    fact: { key: fact.key, params: { task_id: fact.taskId, quota } },
  };
}
