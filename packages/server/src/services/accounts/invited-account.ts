import { formatQuota, type LogFactKey, LogType, logFacts } from '@gateway/shared';
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import type { NewLog, NewUser, UserRow } from '../../db/schema.js';
import { insertReturningId, nowSeconds } from '../../db/sql-helpers.js';

interface Rewards {
  newUser: number;
  invitee: number;
  inviter: number;
}

/**
 * Creates an account the way every sign-up does (password registration and third-party sign-in alike): the
 * new-user quota, and with a live inviter's code the inviter link, the invitee's reward and the inviter's
 * invitation quota, all in one transaction; then each reward as a type-4 system log so the people involved can
 * see where quota came from. An unknown code is ignored. A failed insert (a username taken meanwhile) throws.
 */
export async function insertInvitedAccount(
  ctx: AppContext,
  row: Omit<NewUser, 'quota' | 'inviter_id' | 'created_at'>,
  affCode: string,
): Promise<number> {
  const inviter = affCode ? await ctx.repos.users.findByAffCode(affCode) : undefined;
  const rewards: Rewards = {
    newUser: ctx.options.number('QuotaForNewUser'),
    invitee: inviter ? ctx.options.number('QuotaForInvitee') : 0,
    inviter: inviter ? ctx.options.number('QuotaForInviter') : 0,
  };
  const id = await ctx.db.kysely.transaction().execute(async (trx) => {
    const newId = await insertReturningId(trx, ctx.db.dialect, 'users', {
      ...row,
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
    return newId;
  });
  if (inviter) await ctx.authCache.dropUser(inviter.id);
  await ctx.repos.logs.insertMany(rewardLogs(ctx, { id, username: row.username }, inviter, rewards));
  return id;
}

function rewardLogs(
  ctx: AppContext,
  user: { id: number; username: string },
  inviter: UserRow | undefined,
  rewards: Rewards,
): NewLog[] {
  const display = { quotaPerUnit: ctx.options.number('QuotaPerUnit'), displayInCurrency: true };
  const line = (to: { id: number; username: string }, quota: number, content: string, key: LogFactKey): NewLog => ({
    user_id: to.id,
    username: to.username,
    created_at: nowSeconds(),
    type: LogType.System,
    quota,
    content: `${content} ${formatQuota(quota, display)}`,
    other: logFacts(key, { quota }),
  });
  const logs: NewLog[] = [];
  if (rewards.newUser > 0) logs.push(line(user, rewards.newUser, '新用户注册赠送', 'register_bonus'));
  if (rewards.invitee > 0) logs.push(line(user, rewards.invitee, '使用邀请码赠送', 'invite_code_bonus'));
  if (inviter && rewards.inviter > 0) logs.push(line(inviter, rewards.inviter, '邀请用户赠送', 'inviter_bonus'));
  return logs;
}
