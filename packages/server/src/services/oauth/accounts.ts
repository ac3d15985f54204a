import { UserStatus } from '@gateway/shared';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { ApiFailure } from '../../http/envelope.js';
import { createProviderAccount } from './new-account.js';
import type { ProviderAccountInfo, ProviderIdentity } from './redirect-provider.js';

/**
 * The account rules every provider shares: who a provider id belongs to, when a new account is made, when a
 * sign-in or a binding is refused.
 */

/** The account holding one of these ids, deregistered ones included (they keep their bindings). */
async function findBound(ctx: AppContext, provider: ProviderAccountInfo, ids: string[]): Promise<UserRow | undefined> {
  for (const id of ids) {
    if (!id) continue;
    const user = await ctx.db.kysely
      .selectFrom('users')
      .selectAll()
      .where(provider.column, '=', id)
      .orderBy('id')
      .executeTakeFirst();
    if (user) return user;
  }
  return undefined;
}

// Two callbacks for the same new identity at once (a double click, a retry) must not create two accounts.
const pending = new Map<string, Promise<unknown>>();

async function oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
  while (pending.has(key)) await pending.get(key)!.catch(() => undefined);
  const promise = work();
  pending.set(key, promise);
  try {
    return await promise;
  } finally {
    pending.delete(key);
  }
}

/**
 * The account this identity signs in to: the bound one, or a new one when registration is open. Refuses
 * deregistered and banned accounts. An id the family stored in an older form is upgraded to the stable one.
 */
export async function accountForSignIn(
  ctx: AppContext,
  provider: ProviderAccountInfo,
  identity: ProviderIdentity,
  affCode: string,
): Promise<UserRow> {
  return oneAtATime(`${provider.column}:${identity.id}`, async () => {
    const bound = await findBound(ctx, provider, [identity.id, ...identity.legacyIds]);
    if (bound) {
      if (bound.deleted_at !== null) throw new ApiFailure('user_deleted');
      if (bound.status !== UserStatus.Enabled) throw new ApiFailure('user_banned');
      if (bound[provider.column] !== identity.id) {
        await ctx.repos.users.update(bound.id, { [provider.column]: identity.id });
        bound[provider.column] = identity.id;
      }
      return bound;
    }
    if (!ctx.options.bool('RegisterEnabled')) throw new ApiFailure('register_disabled');
    return createProviderAccount(ctx, provider, identity, affCode);
  });
}

/** Binds the identity to a signed-in account unless another account (deregistered ones too) already holds it. */
export async function bindIdentity(
  ctx: AppContext,
  provider: ProviderAccountInfo,
  user: UserRow,
  identity: ProviderIdentity,
): Promise<void> {
  await oneAtATime(`${provider.column}:${identity.id}`, async () => {
    const bound = await findBound(ctx, provider, [identity.id, ...identity.legacyIds]);
    if (bound && bound.id !== user.id) throw new ApiFailure('oauth_already_bound', { provider: provider.label });
    await ctx.repos.users.update(user.id, { [provider.column]: identity.id });
    await ctx.authCache.dropUser(user.id);
  });
}
