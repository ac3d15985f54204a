import { DISPLAY_NAME_MAX, formatQuota, LogType } from '@gateway/shared';
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import type { NewLog, NewUser, UserRow } from '../../db/schema.js';
import { insertReturningId, nowSeconds } from '../../db/sql-helpers.js';
import type { ProviderAccountInfo, ProviderIdentity } from './redirect-provider.js';

const MAX_NAME_ATTEMPTS = 5;

/**
 * An account for someone who arrived through a provider: the family's `<provider>_<next id>` username (the
 * provider's own login could impersonate "admin"), the provider's display name, the new-user quota and, with a
 * valid invite code, the inviter link and both invitation rewards, each a system log line.
 */
export async function createProviderAccount(
  ctx: AppContext,
  provider: ProviderAccountInfo,
  identity: ProviderIdentity,
  affCode: string,
): Promise<UserRow> {
  const users = ctx.repos.users;
  const inviter = affCode ? await users.findByAffCode(affCode) : undefined;
  const rewards = {
    newUser: ctx.options.number('QuotaForNewUser'),
    invitee: inviter ? ctx.options.number('QuotaForInvitee') : 0,
    inviter: inviter ? ctx.options.number('QuotaForInviter') : 0,
  };
  // An address another account already holds stays with that account: password resets go to one person.
  const email = identity.email && !(await users.emailTaken(identity.email)) ? identity.email : '';
  const displayName = (identity.displayName.trim() || provider.fallbackDisplayName).slice(0, DISPLAY_NAME_MAX);

  for (let attempt = 0; ; attempt++) {
    const username = await candidateUsername(ctx, provider.usernamePrefix, attempt);
    const row: NewUser = {
      username,
      display_name: displayName,
      email,
      [provider.column]: identity.id,
      quota: rewards.newUser + rewards.invitee,
      inviter_id: inviter?.id ?? 0,
      created_at: nowSeconds(),
    };
    let id: number;
    try {
      id = await ctx.db.kysely.transaction().execute(async (trx) => {
        const newId = await insertReturningId(trx, ctx.db.dialect, 'users', row);
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
    } catch (error) {
      // Someone else took the generated name between the check and the insert: pick another.
      if (attempt + 1 < MAX_NAME_ATTEMPTS && (await users.usernameTaken(username))) continue;
      throw error;
    }
    if (inviter) await ctx.authCache.dropUser(inviter.id);
    await ctx.repos.logs.insertMany(rewardLogs(ctx, { id, username }, inviter, rewards));
    const created = await users.findById(id);
    if (!created) throw new Error(`user ${id} vanished right after it was created`);
    return created;
  }
}

async function candidateUsername(ctx: AppContext, prefix: string, attempt: number): Promise<string> {
  const row = await ctx.db.kysely
    .selectFrom('users')
    .select((eb) => eb.fn.max('id').as('max'))
    .executeTakeFirst();
  const next = Number(row?.max ?? 0) + 1 + attempt;
  const name = `${prefix}_${next}`;
  return (await ctx.repos.users.usernameTaken(name))
    ? `${prefix}_${next}_${Math.random().toString(36).slice(2, 6)}`
    : name;
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
