import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { DatabaseTarget } from '../db/dsn.js';

export type BalanceKind = 'user' | 'token';

// Checks and takes from the user's and (when given) the token's live balance in one step, so requests on
// different nodes can never together take more than a balance holds. -1: a balance is not in Redis yet.
const RESERVE = `
local amount = tonumber(ARGV[1])
local user = redis.call('GET', KEYS[1])
if not user then return {-1, 0, 0} end
user = tonumber(user)
if user <= 0 or user < amount then return {1, user, 0} end
local token = 0
if #KEYS == 2 then
  local raw = redis.call('GET', KEYS[2])
  if not raw then return {-1, 0, 0} end
  token = tonumber(raw)
  if token <= 0 or token < amount then return {2, user, token} end
  token = redis.call('DECRBY', KEYS[2], amount)
end
user = redis.call('DECRBY', KEYS[1], amount)
return {0, user, token}`;

// Adjusts a balance only while Redis holds it: INCRBY on a missing key would create a balance from a delta.
const ADJUST = `
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('INCRBY', KEYS[1], ARGV[1]) end
return false`;

export interface SharedReserveResult {
  failure: 'user_quota' | 'token_quota' | null;
  userLeft: number;
  tokenLeft: number;
}

/**
 * Live balances in Redis, for several nodes sharing one database: reservations are checked and taken there
 * atomically, and every settle, refund and credit is applied there as well, so a top-up on one node is spendable on
 * every node at once. The database still receives each node's changes as increments from its own ledger; a
 * balance missing from Redis (first use, Redis restarted) is seeded from the database plus this node's unwritten
 * changes. Keys are namespaced by the database, so test servers or installations sharing a Redis never mix.
 */
export class SharedBalances {
  constructor(
    private readonly client: Redis,
    private readonly namespace: string,
    /** The balance as this node knows it when Redis has none: database value plus unwritten changes. */
    private readonly seed: (kind: BalanceKind, id: number) => Promise<number>,
  ) {}

  static namespaceFor(target: DatabaseTarget): string {
    const identity =
      target.dialect === 'sqlite' ? target.path : target.dialect === 'postgres' ? target.connectionString : target.uri;
    return createHash('sha256').update(identity).digest('hex').slice(0, 16);
  }

  private key(kind: BalanceKind, id: number): string {
    return `gateway:${this.namespace}:quota:${kind}:${id}`;
  }

  async reserve(userId: number, tokenId: number | null, amount: number): Promise<SharedReserveResult> {
    const keys = tokenId === null ? [this.key('user', userId)] : [this.key('user', userId), this.key('token', tokenId)];
    for (let attempt = 0; attempt < 2; attempt++) {
      const [code, userLeft, tokenLeft] = (await this.client.eval(RESERVE, keys.length, ...keys, amount)) as number[];
      if (code === -1) {
        await this.seedMissing(userId, tokenId);
        continue;
      }
      const failure = code === 1 ? 'user_quota' : code === 2 ? 'token_quota' : null;
      return { failure, userLeft: userLeft ?? 0, tokenLeft: tokenLeft ?? 0 };
    }
    throw new Error('shared balances: could not seed the balance in Redis');
  }

  /** Adds `delta` (negative: takes) to a live balance; fire-and-forget, ordered on the connection. */
  adjust(kind: BalanceKind, id: number, delta: number): void {
    if (delta === 0) return;
    this.client.eval(ADJUST, 1, this.key(kind, id), delta).catch(() => {
      // Redis unreachable: the database still gets the change from the ledger; the key is re-seeded later.
    });
  }

  /** After an absolute change in the database (an admin set the balance): the next use re-seeds from there. */
  forget(kind: BalanceKind, id: number): void {
    this.client.del(this.key(kind, id)).catch(() => {});
  }

  private async seedMissing(userId: number, tokenId: number | null): Promise<void> {
    const seeds: Array<[BalanceKind, number]> = [['user', userId]];
    if (tokenId !== null) seeds.push(['token', tokenId]);
    for (const [kind, id] of seeds) {
      const key = this.key(kind, id);
      if (await this.client.exists(key)) continue;
      // NX: when two nodes seed at once, the first value stands and the other node's is ignored.
      await this.client.set(key, await this.seed(kind, id), 'NX');
    }
  }
}
