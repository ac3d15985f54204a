import { DISPLAY_NAME_MAX } from '@gateway/shared';
import type { AppContext } from '../../../context.js';
import type { UserRow } from '../../../db/schema.js';
import { insertInvitedAccount } from '../invited-account.js';
import type { BindingColumn, ProviderAccountInfo, ProviderIdentity } from './redirect-provider.js';

const MAX_NAME_ATTEMPTS = 5;

/**
 * An account for someone who arrived through a provider: the family's `<provider>_<next id>` username (the
 * provider's own login could impersonate "admin"), the provider's display name, the new-user quota and, with a
 * valid invite code, the inviter link and both invitation rewards, each a system log line.
 */
export async function createProviderAccount(
  ctx: AppContext,
  // A custom provider has no users column: its binding is a user_oauth_bindings row written by the caller.
  provider: Pick<ProviderAccountInfo, 'usernamePrefix' | 'fallbackDisplayName'> & { column?: BindingColumn },
  identity: ProviderIdentity,
  affCode: string,
): Promise<UserRow> {
  const users = ctx.repos.users;
  // An address another account already holds stays with that account: password resets go to one person.
  const email = identity.email && !(await users.emailTaken(identity.email)) ? identity.email : '';
  const displayName = (identity.displayName.trim() || provider.fallbackDisplayName).slice(0, DISPLAY_NAME_MAX);

  for (let attempt = 0; ; attempt++) {
    const username = await candidateUsername(ctx, provider.usernamePrefix, attempt);
    let id: number;
    try {
      id = await insertInvitedAccount(
        ctx,
        {
          username,
          display_name: displayName,
          email,
          ...(provider.column ? { [provider.column]: identity.id } : {}),
        },
        affCode,
      );
    } catch (error) {
      // Someone else took the generated name between the check and the insert: pick another.
      if (attempt + 1 < MAX_NAME_ATTEMPTS && (await users.usernameTaken(username))) continue;
      throw error;
    }
    const created = await users.findById(id);
    if (!created) throw new Error(`user ${id} vanished right after it was created`);
    return created;
  }
}

async function candidateUsername(ctx: AppContext, prefix: string, attempt: number): Promise<string> {
  const next = (await ctx.repos.users.maxId()) + 1 + attempt;
  const name = `${prefix}_${next}`;
  return (await ctx.repos.users.usernameTaken(name))
    ? `${prefix}_${next}_${Math.random().toString(36).slice(2, 6)}`
    : name;
}
