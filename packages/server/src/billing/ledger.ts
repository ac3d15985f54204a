import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { nowSeconds } from '../db/sql-helpers.js';
import { SerialRun } from '../lib/serial-run.js';
import type { BalanceKind, FlushEntry, LedgerSide, SharedBalances } from './shared-balances.js';

/** One balance: the database value when loaded plus the changes not yet written back. */
interface Balance {
  base: number;
  pending: number;
  used: number;
  requests: number;
  stale: boolean;
  /** Written to the database by this node (flushed pending and credits) in total: its share in Redis. */
  written: number;
}

/** Whether a balance holds changes the next flush writes (an open reservation counts: it is a pending change). */
const userChanged = (b: Balance) => b.pending !== 0 || b.used !== 0 || b.requests !== 0;
const tokenChanged = (b: Balance) => b.pending !== 0 || b.used !== 0;

/** `token_exhausted`: the token has nothing left at all (as opposed to less than this request needs). */
export type ReserveFailure = 'user_quota' | 'token_quota' | 'token_exhausted';

/**
 * The quota ledger of this node. Reserving and settling touch only memory, so the relay does no database round
 * trip per request; the accumulated changes are written as increments (`quota = quota + delta`) every flush
 * interval and on shutdown. Check-and-subtract happens without an await in between, so concurrent requests can
 * never reserve more than a balance holds. A crash loses at most one interval of changes (logged at flush).
 * With several nodes (Redis configured) the live balances are shared through Redis instead (SharedBalances): the
 * check-and-take happens there atomically and every change is mirrored there; this ledger still writes its own
 * node's changes to the database and keeps a local view for the notices and pre-checks. While Redis is down or
 * slow it serves the balances itself again, against the database value plus its own pending (shared-balances.ts
 * says how Redis is rebuilt afterwards).
 */
export class QuotaLedger {
  private users = new Map<number, Balance>();
  private tokens = new Map<number, Balance>();
  private channelUsed = new Map<number, number>();
  private loading = new Map<string, Promise<void>>();
  private readonly flushes = new SerialRun(() => this.write());
  private timer: NodeJS.Timeout | null = null;
  private shared: SharedBalances | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly onFlushError: (error: unknown) => void = () => {},
  ) {}

  /** Several nodes: balances are checked and taken in Redis from now on. */
  shareThrough(shared: SharedBalances): void {
    this.shared = shared;
  }

  /** This node's side of its balances, as the shared balances read it. */
  side(): LedgerSide {
    return {
      own: (kind, id) => {
        const balance = this.map(kind).get(id);
        return { pending: balance?.pending ?? 0, written: balance?.written ?? 0 };
      },
      databaseValue: (kind, id) => this.readBase(kind, id),
      flushIdle: () => this.flushes.idle(),
      wentLocal: () => {
        for (const balance of [...this.users.values(), ...this.tokens.values()]) balance.stale = true;
      },
    };
  }

  private map(kind: BalanceKind): Map<number, Balance> {
    return kind === 'user' ? this.users : this.tokens;
  }

  /** Whether the token has nothing left (checked before anything else; in shared mode Redis decides at reserve). */
  exhausted(tokenId: number): boolean {
    return !this.shared?.covers('token', tokenId) && this.available('token', tokenId) <= 0;
  }

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  /** Loads the balances a request needs (a database read only the first time, or after a change elsewhere). */
  async prepare(userId: number, tokenId: number | null): Promise<void> {
    await Promise.all([this.ensure('user', userId), tokenId === null ? null : this.ensure('token', tokenId)]);
  }

  available(kind: 'user' | 'token', id: number): number {
    const balance = (kind === 'user' ? this.users : this.tokens).get(id);
    return balance ? balance.base + balance.pending : 0;
  }

  /**
   * Takes `amount` from the user and (unless null or unlimited) the token, or nothing at all. Call prepare() first.
   */
  reserve(
    userId: number,
    tokenId: number | null,
    amount: number,
    tokenUnlimited: boolean,
  ): ReserveFailure | null | Promise<ReserveFailure | null> {
    const user = this.users.get(userId);
    const token = tokenId === null || tokenUnlimited ? null : this.tokens.get(tokenId);
    if (!user) throw new Error(`ledger: user ${userId} not prepared`);
    if (tokenId !== null && !tokenUnlimited && !token) throw new Error(`ledger: token ${tokenId} not prepared`);
    const shared = this.shared;
    const sharedToken = token ? tokenId : null;
    if (shared?.covers('user', userId) && (sharedToken === null || shared.covers('token', sharedToken)))
      return this.reserveShared(shared, user, userId, sharedToken, token, amount);
    return this.reserveLocal(user, userId, sharedToken, token, amount);
  }

  /** Check and take in memory (one node, or this node while Redis cannot be used). */
  private reserveLocal(
    user: Balance,
    userId: number,
    tokenId: number | null,
    token: Balance | null | undefined,
    amount: number,
  ): ReserveFailure | null {
    this.shared?.fallBack();
    const userLeft = user.base + user.pending;
    if (userLeft <= 0 || userLeft < amount) return 'user_quota';
    if (token && (token.base + token.pending <= 0 || token.base + token.pending < amount)) return 'token_quota';
    user.pending -= amount;
    this.shared?.changedLocally('user', userId);
    if (token && tokenId !== null) {
      token.pending -= amount;
      this.shared?.changedLocally('token', tokenId);
    }
    return null;
  }

  private async reserveShared(
    shared: SharedBalances,
    user: Balance,
    userId: number,
    tokenId: number | null,
    token: Balance | null | undefined,
    amount: number,
  ): Promise<ReserveFailure | null> {
    const result = await shared.reserve(userId, tokenId, amount, (taken) => {
      user.pending -= amount;
      // The local view follows the shared balance, so notices compare against what is really left.
      user.base = taken.userLeft - user.pending;
      if (token) {
        token.pending -= amount;
        token.base = taken.tokenLeft - token.pending;
      }
    });
    // Redis could not be used: this node answers from its own ledger.
    if (result === null) return this.reserveLocal(user, userId, tokenId, token, amount);
    if (result.failure === 'token_quota' && result.tokenLeft <= 0) return 'token_exhausted';
    return result.failure;
  }

  /**
   * Turns a reservation into the real cost: the difference is taken or given back, used quota and the request
   * count grow, and the channel's used quota grows. A cost above the reservation may take a balance below zero
   * (the work was done); it is never lost.
   */
  settle(
    userId: number,
    tokenId: number | null,
    reserved: number,
    actual: number,
    channelId: number | null,
    tokenUnlimited: boolean,
  ): void {
    const delta = actual - reserved;
    const user = this.balance(this.users, userId);
    user.pending -= delta;
    user.used += actual;
    user.requests += 1;
    this.shared?.adjust('user', userId, -delta);
    if (tokenId !== null) {
      const token = this.balance(this.tokens, tokenId);
      // Unlimited tokens were not reserved against, but their used quota still counts.
      const change = tokenUnlimited ? actual : delta;
      token.pending -= change;
      token.used += actual;
      this.shared?.adjust('token', tokenId, -change);
    }
    if (channelId !== null && actual !== 0)
      this.channelUsed.set(channelId, (this.channelUsed.get(channelId) ?? 0) + actual);
  }

  /** Gives a whole reservation back (the request failed before any work was billed). */
  refund(userId: number, tokenId: number | null, reserved: number, tokenUnlimited: boolean): void {
    this.balance(this.users, userId).pending += reserved;
    this.shared?.adjust('user', userId, reserved);
    if (tokenId !== null && !tokenUnlimited) {
      this.balance(this.tokens, tokenId).pending += reserved;
      this.shared?.adjust('token', tokenId, reserved);
    }
  }

  /**
   * Mirrors an increment already committed to the database (`quota = quota + amount`: a redemption, a top-up, an
   * admin's adjustment). Both sides only ever add, so the order against a flush in flight does not matter.
   */
  credit(kind: 'user' | 'token', id: number, amount: number): void {
    const balance = this.balance(this.map(kind), id);
    if (!balance.stale) balance.base += amount;
    balance.written += amount;
    this.shared?.credit(kind, id, amount);
  }

  /** After the console set a balance to a new absolute value in the database: re-read it before the next use. */
  markStale(kind: 'user' | 'token', id: number): void {
    const balance = (kind === 'user' ? this.users : this.tokens).get(id);
    if (balance) balance.stale = true;
    // A read under way may have run before the change: it must not become the balance (see ensure).
    this.loading.delete(`${kind}:${id}`);
    this.shared?.forget(kind, id);
  }

  /**
   * Writes every change made before the call as increments in one transaction. A flush under way wrote a snapshot
   * taken earlier, so it is followed by another; calls made meanwhile share that one.
   */
  flush(): Promise<void> {
    return this.flushes.request();
  }

  /** How many balances wait for the next flush, for /metrics (walks every balance: scrape time only). */
  pendingWrites(): { users: number; tokens: number; channels: number } {
    let users = 0;
    let tokens = 0;
    for (const balance of this.users.values()) if (userChanged(balance)) users++;
    for (const balance of this.tokens.values()) if (tokenChanged(balance)) tokens++;
    return { users, tokens, channels: this.channelUsed.size };
  }

  private async write(): Promise<void> {
    const users = [...this.users].filter(([, b]) => userChanged(b));
    const tokens = [...this.tokens].filter(([, b]) => tokenChanged(b));
    const channels = [...this.channelUsed];
    if (users.length === 0 && tokens.length === 0 && channels.length === 0) return;
    // Take a snapshot: changes that arrive while writing stay pending for the next flush.
    const userDeltas = users.map(([id, b]) => ({ id, b, pending: b.pending, used: b.used, requests: b.requests }));
    const tokenDeltas = tokens.map(([id, b]) => ({ id, b, pending: b.pending, used: b.used }));
    for (const [id] of channels) this.channelUsed.delete(id);
    const moving: FlushEntry[] = [
      ...userDeltas.map((d) => ({ kind: 'user' as const, id: d.id, amount: d.pending })),
      ...tokenDeltas.map((d) => ({ kind: 'token' as const, id: d.id, amount: d.pending })),
    ].filter((entry) => entry.amount !== 0);
    const guard = this.shared ? await this.shared.beginFlush(moving) : null;
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const d of userDeltas) {
          await trx
            .updateTable('users')
            .set({
              quota: sql`quota + ${d.pending}`,
              used_quota: sql`used_quota + ${d.used}`,
              request_count: sql`request_count + ${d.requests}`,
            })
            .where('id', '=', d.id)
            .execute();
        }
        const now = nowSeconds();
        for (const d of tokenDeltas) {
          await trx
            .updateTable('tokens')
            .set({
              remain_quota: sql`remain_quota + ${d.pending}`,
              used_quota: sql`used_quota + ${d.used}`,
              accessed_time: now,
            })
            .where('id', '=', d.id)
            .execute();
        }
        for (const [id, used] of channels) {
          await trx
            .updateTable('channels')
            .set({ used_quota: sql`used_quota + ${used}` })
            .where('id', '=', id)
            .execute();
        }
      });
    } catch (error) {
      for (const [id, used] of channels) this.channelUsed.set(id, (this.channelUsed.get(id) ?? 0) + used);
      if (guard) await this.shared?.endFlush(guard, false);
      this.onFlushError(error);
      return;
    }
    for (const d of userDeltas) {
      d.b.base += d.pending;
      d.b.pending -= d.pending;
      d.b.written += d.pending;
      d.b.used -= d.used;
      d.b.requests -= d.requests;
    }
    for (const d of tokenDeltas) {
      d.b.base += d.pending;
      d.b.pending -= d.pending;
      d.b.written += d.pending;
      d.b.used -= d.used;
    }
    if (!this.shared || !guard) return;
    await this.shared.endFlush(guard, true);
    // Served locally meanwhile: other nodes' writes show up in the database, so the next request re-reads it.
    for (const kind of ['user', 'token'] as const) {
      for (const [id, balance] of this.map(kind)) if (!this.shared.covers(kind, id)) balance.stale = true;
    }
  }

  private balance(map: Map<number, Balance>, id: number): Balance {
    let balance = map.get(id);
    if (!balance) {
      // Settling something never prepared (e.g. after a stale drop): keep the change, load the base lazily.
      balance = { base: 0, pending: 0, used: 0, requests: 0, stale: true, written: 0 };
      map.set(id, balance);
    }
    return balance;
  }

  private async ensure(kind: 'user' | 'token', id: number): Promise<void> {
    const map = kind === 'user' ? this.users : this.tokens;
    const key = `${kind}:${id}`;
    // Loops when the read it waited for was superseded by markStale (a change landed while it ran): the balance is
    // then still missing or stale, and a fresh read is started or joined.
    for (let balance = map.get(id); !balance || balance.stale; balance = map.get(id)) {
      await (this.loading.get(key) ?? this.load(kind, id, key));
    }
  }

  /** Reads a balance's base; registered under `key` until it ends, or until markStale drops it. */
  private load(kind: 'user' | 'token', id: number, key: string): Promise<void> {
    const map = kind === 'user' ? this.users : this.tokens;
    // Assigned before its first use: the body below reaches `read` only after an await.
    let read!: Promise<void>;
    read = (async () => {
      // A flush in flight may or may not be in the row yet: wait so base and pending agree.
      await this.flushes.idle();
      const base = await this.readBase(kind, id);
      if (this.loading.get(key) !== read) return;
      const current = map.get(id);
      if (current) {
        current.base = base;
        current.stale = false;
      } else {
        map.set(id, { base, pending: 0, used: 0, requests: 0, stale: false, written: 0 });
      }
    })().finally(() => {
      if (this.loading.get(key) === read) this.loading.delete(key);
    });
    this.loading.set(key, read);
    return read;
  }

  private async readBase(kind: 'user' | 'token', id: number): Promise<number> {
    if (kind === 'user') {
      const row = await this.db.selectFrom('users').select('quota').where('id', '=', id).executeTakeFirst();
      return Number(row?.quota ?? 0);
    }
    const row = await this.db.selectFrom('tokens').select('remain_quota').where('id', '=', id).executeTakeFirst();
    return Number(row?.remain_quota ?? 0);
  }
}
