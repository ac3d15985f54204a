import { formatQuota, type LogFactKey, LogType, logFacts, TopUpStatus } from '@gateway/shared';
import type { AppContext } from '../context.js';
import type { NewLog, NewUser, RedemptionRow, TopUpRow, UserRow } from '../db/schema.js';
import { nowSeconds } from '../db/sql-helpers.js';

/**
 * Every way quota is given to a user outside the relay's own charges and refunds (billing/ledger.ts): an online
 * top-up, a redeemed code, invitation quota moved to the balance, sign-up and invitation bonuses, a daily check-in's
 * reward, an admin's addition. Each changes the database in one transaction, writes the usage-log row that tells the user where the
 * quota came from, and then tells the in-memory balances (the ledger, the auth cache) what changed.
 */

type Someone = Pick<UserRow, 'id' | 'username'>;

function display(ctx: AppContext) {
  return { quotaPerUnit: ctx.options.number('QuotaPerUnit'), displayInCurrency: true };
}

/**
 * A credit's log row written after its transaction, through the batched log writer, where these credits have
 * always written it.
 */
async function logAfterwards(
  ctx: AppContext,
  user: Someone,
  row: Pick<NewLog, 'type' | 'quota' | 'content' | 'other'>,
): Promise<void> {
  await ctx.repos.logs.insertMany([{ user_id: user.id, username: user.username, created_at: nowSeconds(), ...row }]);
}

/**
 * Completes a paid online order and credits its quota. The pending → success update is conditional, so of any
 * number of concurrent or replayed reports exactly one credits; false when this one found the order complete.
 */
export async function creditTopUp(
  ctx: AppContext,
  order: Pick<TopUpRow, 'trade_no' | 'user_id' | 'money'>,
  quota: number,
): Promise<boolean> {
  const payer = await ctx.repos.users.findById(order.user_id);
  const credited = await ctx.db.inTransaction(async (trx) => {
    if (!(await ctx.repos.topUps.completePending(trx, order.trade_no))) return false;
    await ctx.repos.users.addQuotaIn(trx, order.user_id, quota);
    await ctx.repos.creditLogs.insertIn(trx, {
      user_id: order.user_id,
      username: payer?.username ?? '',
      created_at: nowSeconds(),
      type: LogType.TopUp,
      quota,
      content: `在线充值成功，充值额度: ${formatQuota(quota, display(ctx))}，支付金额：${order.money.toFixed(2)}`,
      other: logFacts('topup_online', { quota, money: order.money.toFixed(2) }),
    });
    return true;
  });
  if (credited) ctx.ledger.credit('user', order.user_id, quota);
  return credited;
}

/**
 * Redeems a code the caller has checked (usable, not expired). The claim is a conditional update on the code's
 * status inside the transaction that credits the user, writes the top-up record and the log: of any number of
 * concurrent redeemers (on any node, any database) exactly one commits; the others change nothing and get false.
 */
export async function redeemCode(
  ctx: AppContext,
  user: Someone,
  code: Pick<RedemptionRow, 'id' | 'quota'>,
): Promise<boolean> {
  const now = nowSeconds();
  const claimed = await ctx.db.inTransaction(async (trx) => {
    if (!(await ctx.repos.redemptions.claim(trx, code.id, user.id))) return false;
    await ctx.repos.users.addQuotaIn(trx, user.id, code.quota);
    await ctx.repos.topUps.insertIn(trx, {
      user_id: user.id,
      amount: code.quota,
      money: 0,
      trade_no: `REDEEM${code.id}`,
      payment_method: 'redemption',
      create_time: now,
      complete_time: now,
      status: TopUpStatus.Success,
    });
    await ctx.repos.creditLogs.insertIn(trx, {
      user_id: user.id,
      username: user.username,
      created_at: now,
      type: LogType.TopUp,
      quota: code.quota,
      content: `通过兑换码充值 ${formatQuota(code.quota, display(ctx))}，兑换码ID ${code.id}`,
      other: logFacts('redeem', { quota: code.quota, code_id: code.id }),
    });
    return true;
  });
  if (claimed) ctx.ledger.credit('user', user.id, code.quota);
  return claimed;
}

/**
 * Moves invitation quota to the balance, only if that much is there (false otherwise: nothing moved). The log row
 * follows the move through the batched log writer, as it always has.
 */
export async function transferAffQuota(ctx: AppContext, user: Someone, quota: number): Promise<boolean> {
  const moved = await ctx.db.inTransaction((trx) => ctx.repos.users.moveAffQuota(trx, user.id, quota));
  if (!moved) return false;
  ctx.ledger.credit('user', user.id, quota);
  await logAfterwards(ctx, user, {
    type: LogType.System,
    quota,
    content: `邀请额度划转到余额 ${formatQuota(quota, display(ctx))}`,
    other: logFacts('aff_transfer', { quota }),
  });
  return true;
}

/**
 * A daily check-in's reward: the day's row (a conditional insert under the unique (user, day) index), the balance
 * and the type-4 log line the family writes, in one transaction. Of any number of concurrent check-ins of one user
 * on one day (any node, any database) exactly one commits; the others change nothing and get false.
 */
export async function creditCheckin(ctx: AppContext, user: Someone, date: string, quota: number): Promise<boolean> {
  const now = nowSeconds();
  const credited = await ctx.db.inTransaction(async (trx) => {
    const row = { user_id: user.id, checkin_date: date, quota_awarded: quota, created_at: now };
    if (!(await ctx.repos.checkins.insertOnce(trx, row))) return false;
    await ctx.repos.users.addQuotaIn(trx, user.id, quota);
    await ctx.repos.creditLogs.insertIn(trx, {
      user_id: user.id,
      username: user.username,
      created_at: now,
      type: LogType.System,
      quota,
      content: `用户签到，获得额度 ${formatQuota(quota, display(ctx))}`,
      other: logFacts('checkin', { quota }),
    });
    return true;
  });
  if (credited) ctx.ledger.credit('user', user.id, quota);
  return credited;
}

/** What a sign-up is given: the new-user quota, and with a live inviter the invitee's and the inviter's rewards. */
export interface SignUpBonuses {
  newUser: number;
  invitee: number;
  inviter: number;
}

/**
 * Creates an account with its sign-up bonuses: the account with the new-user and invitee quota, and the inviter's
 * link count and invitation quota, in one transaction; then each bonus as a type-4 system log so the people
 * involved can see where quota came from. A failed insert (a username taken meanwhile) throws.
 */
export async function grantSignUpBonuses(
  ctx: AppContext,
  row: Omit<NewUser, 'quota' | 'inviter_id' | 'created_at'>,
  inviter: UserRow | undefined,
  bonuses: SignUpBonuses,
): Promise<number> {
  const id = await ctx.db.inTransaction(async (trx) => {
    const newId = await ctx.repos.users.insertIn(trx, {
      ...row,
      quota: bonuses.newUser + bonuses.invitee,
      inviter_id: inviter?.id ?? 0,
      created_at: nowSeconds(),
    });
    if (inviter) await ctx.repos.users.creditInviter(trx, inviter.id, bonuses.inviter);
    return newId;
  });
  if (inviter) await ctx.authCache.dropUser(inviter.id);
  await ctx.repos.logs.insertMany(bonusLogs(ctx, { id, username: row.username }, inviter, bonuses));
  return id;
}

function bonusLogs(ctx: AppContext, user: Someone, inviter: UserRow | undefined, bonuses: SignUpBonuses): NewLog[] {
  const line = (to: Someone, quota: number, content: string, key: LogFactKey): NewLog => ({
    user_id: to.id,
    username: to.username,
    created_at: nowSeconds(),
    type: LogType.System,
    quota,
    content: `${content} ${formatQuota(quota, display(ctx))}`,
    other: logFacts(key, { quota }),
  });
  const logs: NewLog[] = [];
  if (bonuses.newUser > 0) logs.push(line(user, bonuses.newUser, '新用户注册赠送', 'register_bonus'));
  if (bonuses.invitee > 0) logs.push(line(user, bonuses.invitee, '使用邀请码赠送', 'invite_code_bonus'));
  if (inviter && bonuses.inviter > 0) logs.push(line(inviter, bonuses.inviter, '邀请用户赠送', 'inviter_bonus'));
  return logs;
}

/**
 * An admin adds (or with a negative delta, removes) quota: one increment, so concurrent consumption is never
 * overwritten, mirrored in the ledger, then recorded as a type-3 manage log.
 */
export async function adjustQuotaByAdmin(ctx: AppContext, user: Someone, delta: number): Promise<void> {
  await ctx.repos.users.addQuota(user.id, delta);
  ctx.ledger.credit('user', user.id, delta);
  await logAfterwards(ctx, user, {
    type: LogType.Manage,
    content: `管理员为用户增加额度 ${formatQuota(delta, display(ctx))}`,
    other: logFacts('admin_add_quota', { quota: delta }),
  });
}
