import { grantSignUpBonuses, type SignUpBonuses } from '../../billing/credits.js';
import type { AppContext } from '../../context.js';
import type { NewUser } from '../../db/schema.js';

/**
 * Creates an account the way every sign-up does (password registration and third-party sign-in alike): the
 * new-user quota, and with a live inviter's code the inviter link, the invitee's reward and the inviter's
 * invitation quota (granted by billing/credits.ts). An unknown code is ignored. A failed insert (a username taken
 * meanwhile) throws.
 */
export async function insertInvitedAccount(
  ctx: AppContext,
  row: Omit<NewUser, 'quota' | 'inviter_id' | 'created_at'>,
  affCode: string,
): Promise<number> {
  const inviter = affCode ? await ctx.repos.users.findByAffCode(affCode) : undefined;
  const rewards: SignUpBonuses = {
    newUser: ctx.options.number('QuotaForNewUser'),
    invitee: inviter ? ctx.options.number('QuotaForInvitee') : 0,
    inviter: inviter ? ctx.options.number('QuotaForInviter') : 0,
  };
  return grantSignUpBonuses(ctx, row, inviter, rewards);
}
