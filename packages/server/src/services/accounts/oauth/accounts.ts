import { UserStatus } from '@gateway/shared';
import type { AppContext } from '../../../context.js';
import type { UserRow } from '../../../db/schema.js';
import { ApiFailure } from '../../../http/envelope.js';
import { randomToken } from './flow.js';
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
    const user = await ctx.repos.users.findByProviderId(provider.column, id);
    if (user) return user;
  }
  return undefined;
}

// Two callbacks for the same new identity at once (a double click, a retry) must not create two accounts: one at
// a time per identity in this process, and across nodes through Redis when the cluster has it.
// Per app instance (one per process in production; tests run several nodes in one process).
const pendingByApp = new WeakMap<AppContext, Map<string, Promise<unknown>>>();
const CLUSTER_LOCK_MS = 15_000;
const RELEASE_IF_OURS =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

async function clusterLock<T>(ctx: AppContext, key: string, work: () => Promise<T>): Promise<T> {
  const redis = ctx.redis?.client;
  if (!redis) return work();
  const name = `oauth:lock:${key}`;
  const token = randomToken(12);
  const deadline = Date.now() + CLUSTER_LOCK_MS;
  // A holder that died releases by expiry; waiting longer than that would only mean Redis is gone.
  while ((await redis.set(name, token, 'PX', CLUSTER_LOCK_MS, 'NX')) !== 'OK' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  try {
    return await work();
  } finally {
    await redis.eval(RELEASE_IF_OURS, 1, name, token);
  }
}

export async function oneAtATime<T>(ctx: AppContext, key: string, work: () => Promise<T>): Promise<T> {
  let pending = pendingByApp.get(ctx);
  if (!pending) {
    pending = new Map();
    pendingByApp.set(ctx, pending);
  }
  while (pending.has(key)) await pending.get(key)!.catch(() => undefined);
  const promise = clusterLock(ctx, key, work);
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
  return oneAtATime(ctx, `${provider.column}:${identity.id}`, async () => {
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
  await oneAtATime(ctx, `${provider.column}:${identity.id}`, async () => {
    const bound = await findBound(ctx, provider, [identity.id, ...identity.legacyIds]);
    if (bound && bound.id !== user.id) throw new ApiFailure('oauth_already_bound', { provider: provider.label });
    await ctx.repos.users.update(user.id, { [provider.column]: identity.id });
    await ctx.authCache.dropUser(user.id);
  });
}
