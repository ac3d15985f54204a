/**
 * Live balances in Redis, for several nodes sharing one database, and what happens when Redis is down or slow.
 *
 * The database is the source of truth; every node writes its own changes there as increments (QuotaLedger). The
 * live balance is that value plus every node's changes not yet written (open reservations included):
 * L = D + Σ P(node). Redis holds L per balance as a hash: `v` = L, and per node `p:<node>` = the node's P as
 * counted in `v` and `f:<node>` = what the node has written to the database (and credited) in total. Each Lua
 * step changes `v` together with the calling node's own fields, so a node can always repair its share by itself:
 * it knows its own P and written total exactly and sends them as absolute values (ASSERT), which moves `v` by
 * the same correction; a step that timed out and may or may not have run is thus made right without guessing.
 * Reservations are checked and taken in one step on the user and token together, so nodes never overspend.
 *
 * Flushes: before a node commits its pending to the database it moves it from `p` to `f` in Redis (`v` unchanged)
 * under a guard (a per-node expiry in one hash, plus a version moved at each start and end); a failed commit
 * moves it back. Building a balance from the database (SEED: `v` = D + the builder's own P, other nodes then
 * register with their own P on their next step) is refused while any guard is held or the version moved since D
 * was read, so D never includes a flush that `f` does not, or the other way round. A node registering states its
 * P and its written total: everything it wrote before registering is in D (its flushes were guarded).
 *
 * Redis down or slow (no command waits longer than REDIS_COMMAND_TIMEOUT_MS): the node serves from its own
 * ledger, against the database value (re-read after every flush meanwhile) plus its own pending, so it never
 * spends more than the database says minus what it has pending itself; nodes cut off together can each spend
 * that much (the price of staying up). Its flushes then run unguarded, so every balance it changed meanwhile,
 * and every balance whose step failed, is rebuilt when Redis answers again: after its flushes are idle, SEED
 * with replace (D read after every unguarded write of this node; other nodes' writes guarded as above), then the
 * balance is shared again. A Redis that lost everything (restart without persistence) is rebuilt the same way on
 * first use. Hence after recovery, once every node has flushed and no request is open, `v` equals the database.
 *
 * A node that dies (SIGKILL, a lost machine) leaves its `p` in every balance it touched, open reservations
 * included. Every node marks itself alive with a key that expires a TTL (NODE_HEARTBEAT_TTL) after its last heartbeat
 * (every third of it), sent before any other command of its own; every node looks for balances holding the `p` of
 * a node without that key (a TTL after start, then every TTL) and rebuilds them from the database, which drops the
 * dead node's share. A live node is never dropped while its key stands; one whose heartbeats were lost registers
 * again on its next step, as after any rebuild.
 *
 * Self-healing: a command that timed out may still run later, after its node gave up on it and maybe after a
 * rebuild. So every REASSERT_MS, at the end of a flush, each node states its own share again (ASSERT, absolute) on
 * the balances it changed since: `v` is corrected by whatever such a late command moved, and a share another
 * node's rebuild dropped rejoins even when this node makes no further step on that balance. A balance whose `v`
 * drifted from `D + Σp` itself (a rebuild that read the database across a commit no guard covered, as while Redis
 * was failing) is set back to the database value at the first moment no node holds a share in it (VERIFY); until
 * then it stays on this node's list to verify.
 *
 * Known limit: a credit (top-up, redemption) committed to the database just before another node builds the same
 * balance may be counted twice in Redis until the balance is rebuilt; credits on a balance this node is not
 * registered in are rebuilt at once to keep that window small.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { RedisHealth } from '../cache/redis-health.js';
import type { DatabaseTarget } from '../db/dsn.js';
import { ASSERT, GUARD, MOVE, RESERVE, SEED, VERIFY } from './shared-balance-scripts.js';

/** A user's wallet, a token's remaining quota, a subscription's quota left in its period (by user_subscriptions id). */
export type BalanceKind = 'user' | 'token' | 'subscription';

/** What the ledger tells the shared balances about this node's own side of a balance. */
export interface LedgerSide {
  /** This node's unwritten change (open reservations included) and its written-or-credited total. */
  own(kind: BalanceKind, id: number): { pending: number; written: number };
  databaseValue(kind: BalanceKind, id: number): Promise<number>;
  /** Resolves when no flush of this node is under way. */
  flushIdle(): Promise<void>;
  /** Redis went down: re-read the balances from the database before serving them locally. */
  wentLocal(): void;
}

export interface SharedReserveResult {
  failure: 'user_quota' | 'token_quota' | null;
  userLeft: number;
  tokenLeft: number;
}

export interface FlushEntry {
  kind: BalanceKind;
  id: number;
  amount: number;
}

/**
 * A flush's entries as Redis took them: `moved` from `p` to `f` before the commit; `unregistered` are balances
 * this node is not registered in (built again meanwhile), which it joins after the commit, still under the guard.
 */
export interface FlushGuard {
  moved: FlushEntry[];
  unregistered: FlushEntry[];
  guarded: boolean;
}

/** How often a node states its share again on the balances it changed (see "Self-healing" above). */
const REASSERT_MS = 2_000;
/** Balances compared with the database per round (one read each). */
const VERIFY_PER_ROUND = 20;
/** How long a flush guard of a node that died mid-flush keeps seeds waiting. */
const GUARD_MS = 30_000;
const RETRY_MS = 50;

const keyOf = (kind: BalanceKind, id: number) => `${kind}:${id}`;

export class SharedBalances {
  /** Balances this node serves locally until they are rebuilt in Redis. */
  private readonly local = new Set<string>();
  private readonly locks = new Map<string, Promise<void>>();
  private readonly inFlight = new Map<string, number>();
  private readonly drained = new Map<string, Array<() => void>>();
  private resyncing = false;
  private guardLeft = false;
  private readonly node = Math.random().toString(36).slice(2, 10);
  private readonly timers: NodeJS.Timeout[] = [];
  private reaping = false;
  /** Balances this node changed (or failed to) since it last stated its shares. */
  private readonly touched = new Set<string>();
  /** Balances to compare with the database once nobody holds a share in them (VERIFY). */
  private readonly unverified = new Set<string>();
  private lastReassert = 0;

  constructor(
    private readonly client: Redis,
    private readonly health: RedisHealth,
    private readonly namespace: string,
    private readonly ledger: LedgerSide,
    private readonly nodeTtlMs = 15_000,
  ) {
    health.onDown(() => ledger.wentLocal());
    health.onUp(() => {
      // The heartbeat goes first: a node must be marked alive before any of its shares can be seen.
      this.beat();
      void this.resync();
    });
    this.beat();
    const heartbeat = setInterval(() => this.beat(), Math.ceil(nodeTtlMs / 3));
    const reaper = setInterval(() => void this.reapDead(), nodeTtlMs);
    // The first look comes as soon as a node that died just before this start has expired: a restarted node is most
    // often the one that finds its old self.
    const first = setTimeout(() => void this.reapDead(), nodeTtlMs + Math.ceil(nodeTtlMs / 3));
    for (const timer of [heartbeat, reaper, first]) timer.unref();
    this.timers.push(heartbeat, reaper, first);
  }

  /** Stops the heartbeat (shutdown); the node's key then expires on its own. */
  stop(): void {
    for (const timer of this.timers) clearInterval(timer);
  }

  private nodeKey(node: string): string {
    return `gateway:${this.namespace}:node:${node}`;
  }

  private beat(): void {
    if (!this.health.up) return;
    this.client
      .set(this.nodeKey(this.node), '1', 'PX', this.nodeTtlMs)
      .catch((error: unknown) => this.health.failed(error));
  }

  /**
   * Finds balances holding the share of a node whose heartbeat key expired and rebuilds them from the database
   * (after this node's flushes are idle, as every rebuild), so a dead node's open reservations free up.
   */
  async reapDead(): Promise<number> {
    if (this.reaping || !this.health.up) return 0;
    this.reaping = true;
    const prefix = `gateway:${this.namespace}:balance:`;
    const alive = new Map<string, boolean>([[this.node, true]]);
    let found = 0;
    try {
      let cursor = '0';
      do {
        const [next, keys] = await this.client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
        cursor = next;
        for (const key of keys) {
          const nodes = (await this.client.hkeys(key)).filter((f) => f.startsWith('p:')).map((f) => f.slice(2));
          for (const node of nodes) {
            if (!alive.has(node)) alive.set(node, (await this.client.exists(this.nodeKey(node))) === 1);
          }
          if (nodes.every((node) => alive.get(node))) continue;
          const [kind, id] = key.slice(prefix.length).split(':') as [BalanceKind, string];
          this.changedLocally(kind, Number(id));
          found++;
        }
      } while (cursor !== '0');
      if (found > 0) await this.resync();
    } catch (error) {
      this.health.failed(error);
    } finally {
      this.reaping = false;
    }
    return found;
  }

  static namespaceFor(target: DatabaseTarget): string {
    const identity =
      target.dialect === 'sqlite' ? target.path : target.dialect === 'postgres' ? target.connectionString : target.uri;
    return createHash('sha256').update(identity).digest('hex').slice(0, 16);
  }

  /** Whether a balance is checked in Redis now (else the ledger serves it from its own memory). */
  covers(kind: BalanceKind, id: number): boolean {
    return this.health.up && !this.local.has(keyOf(kind, id));
  }

  /** Balances waiting to be rebuilt in Redis (for /metrics). */
  get localBalances(): number {
    return this.local.size;
  }

  private key(kind: BalanceKind, id: number): string {
    return `gateway:${this.namespace}:balance:${kind}:${id}`;
  }

  private get guardKey(): string {
    return `gateway:${this.namespace}:balance-flushes`;
  }

  /**
   * Takes `amount` from the payer (a user's wallet or a subscription) and the token in Redis; `taken` runs
   * synchronously when it was taken, before anything else can read this node's pending. Null: Redis cannot be
   * used, serve the request locally. `user_quota` in the answer means the payer had too little.
   */
  async reserve(
    payer: [BalanceKind, number],
    tokenId: number | null,
    amount: number,
    taken: (result: SharedReserveResult) => void,
  ): Promise<SharedReserveResult | null> {
    const balances: Array<[BalanceKind, number]> = [payer];
    if (tokenId !== null) balances.push(['token', tokenId]);
    const keys = balances.map(([kind, id]) => this.key(kind, id));
    for (let attempt = 0; attempt < 5; attempt++) {
      if (!balances.every(([kind, id]) => this.covers(kind, id))) return this.fallBack();
      // Waits out a rebuild or registration of either balance; entering happens in the tick of the last check.
      for (let held = this.held(balances); held.length > 0; held = this.held(balances)) await Promise.all(held);
      this.enter(balances);
      let reply: number[];
      try {
        reply = (await this.client.eval(RESERVE, keys.length, ...keys, this.node, amount)) as number[];
      } catch (error) {
        this.leave(balances);
        this.failed(balances, error);
        return this.fallBack();
      }
      const [code = -1, first = 0, second = 0] = reply;
      if (code >= 0) {
        const result: SharedReserveResult = {
          failure: code === 1 ? 'user_quota' : code === 2 ? 'token_quota' : null,
          userLeft: first,
          tokenLeft: second,
        };
        if (code === 0) {
          taken(result);
          for (const [kind, id] of balances) this.touched.add(keyOf(kind, id));
        }
        this.leave(balances);
        return result;
      }
      this.leave(balances);
      const [kind, id] = balances[first - 1] ?? balances[0]!;
      try {
        if (code === -1) await this.build(kind, id, false);
        else await this.register(kind, id);
      } catch (error) {
        this.failed([[kind, id]], error);
        return this.fallBack();
      }
    }
    return this.fallBack();
  }

  /** Counts a reservation this node answers itself because Redis cannot be used (for /metrics). */
  fallBack(): null {
    this.health.fellBack();
    return null;
  }

  private held(balances: Array<[BalanceKind, number]>): Promise<void>[] {
    return balances.flatMap(([kind, id]) => this.locks.get(keyOf(kind, id)) ?? []);
  }

  /** Mirrors a change of this node's pending (a settle or refund) already made in its ledger. */
  adjust(kind: BalanceKind, id: number, delta: number): void {
    this.move(kind, id, delta, 0);
  }

  /** Mirrors an increment already committed to the database by someone on this node (a top-up, a redemption). */
  credit(kind: BalanceKind, id: number, amount: number): void {
    this.move(kind, id, 0, amount, () => void this.rebuild(kind, id));
  }

  /** A change made while the balance is served locally: it is rebuilt from the database once Redis answers. */
  changedLocally(kind: BalanceKind, id: number): void {
    this.local.add(keyOf(kind, id));
  }

  /** After an absolute change in the database (an admin set the balance): rebuild it from there. */
  forget(kind: BalanceKind, id: number): void {
    void this.rebuild(kind, id);
  }

  /** Before a flush commits: guard it and move each shared entry's amount from pending to written in Redis. */
  async beginFlush(entries: FlushEntry[]): Promise<FlushGuard> {
    const shared = entries.filter((entry) => this.covers(entry.kind, entry.id));
    for (const entry of entries) if (!this.covers(entry.kind, entry.id)) this.changedLocally(entry.kind, entry.id);
    // Guarded even when every entry is served locally: a rebuild on another node must not read the database while
    // this commit lands, or the balance it builds misses (or counts twice) what this commit moves.
    if (entries.length === 0 || !this.health.up) return { moved: [], unregistered: [], guarded: false };
    const pipeline = this.client.pipeline().eval(GUARD, 1, this.guardKey, this.node, Date.now() + GUARD_MS);
    for (const { kind, id, amount } of shared) pipeline.eval(MOVE, 1, this.key(kind, id), this.node, -amount, amount);
    const replies = await pipeline.exec().catch((error: unknown) => [[error, null]] as Array<[unknown, unknown]>);
    const failure = replies?.find(([error]) => error)?.[0];
    if (failure) {
      this.failed(
        shared.map((entry) => [entry.kind, entry.id]),
        failure,
      );
      this.guardLeft = true;
      return { moved: [], unregistered: [], guarded: false };
    }
    const moved = shared.filter((_, index) => replies?.[index + 1]?.[1] === 1);
    const unregistered = shared.filter((_, index) => replies?.[index + 1]?.[1] === 0);
    return { moved, unregistered, guarded: true };
  }

  /** After the commit (or its failure, which moves the amounts back): the guard ends; local balances resync. */
  async endFlush(guard: FlushGuard, committed: boolean): Promise<void> {
    if (!committed) for (const { kind, id, amount } of guard.moved) this.move(kind, id, amount, -amount);
    // The balance was built before the guard, so without this flush: it joins with the amount still as pending.
    if (committed) {
      const joins = guard.unregistered.map(({ kind, id, amount }) => this.register(kind, id, amount));
      for (const [index, outcome] of (await Promise.allSettled(joins)).entries()) {
        const entry = guard.unregistered[index]!;
        if (outcome.status === 'rejected') this.failed([[entry.kind, entry.id]], outcome.reason);
      }
    }
    if (guard.guarded) await this.endGuard();
    if (this.local.size > 0 && this.health.up) void this.resync();
  }

  /** Ends this node's flush guard; one left behind by an outage is ended when Redis answers (else it expires). */
  private async endGuard(): Promise<void> {
    try {
      await this.client.eval(GUARD, 1, this.guardKey, this.node, '');
      this.guardLeft = false;
    } catch (error) {
      this.guardLeft = true;
      this.health.failed(error);
    }
  }

  private move(kind: BalanceKind, id: number, pending: number, written: number, unregistered?: () => void): void {
    if (pending === 0 && written === 0) return;
    if (!this.covers(kind, id)) {
      this.changedLocally(kind, id);
      return;
    }
    const force = unregistered ? 1 : 0;
    this.touched.add(keyOf(kind, id));
    this.client.eval(MOVE, 1, this.key(kind, id), this.node, pending, written, force).then(
      (applied) => {
        if (applied !== 1) unregistered?.();
      },
      (error: unknown) => this.failed([[kind, id]], error),
    );
  }

  private failed(balances: Array<[BalanceKind, number]>, error: unknown): void {
    for (const [kind, id] of balances) {
      this.changedLocally(kind, id);
      this.touched.add(keyOf(kind, id));
    }
    this.health.failed(error);
  }

  /**
   * States this node's share again on every balance it changed since the last time (at most every REASSERT_MS).
   * Called by the ledger at the end of a flush, so no flush of this node runs meanwhile; each ASSERT waits for this
   * node's reservations in flight on its balance (exclusive). Balances served locally are rebuilt instead.
   */
  async reassertShares(): Promise<void> {
    if (!this.health.up || this.resyncing || Date.now() - this.lastReassert < REASSERT_MS) return;
    // Balances still served locally (a command failed after the last rebuild) are rebuilt once this flush ends,
    // even when this node has nothing more to write.
    if (this.local.size > 0) void this.resync();
    this.lastReassert = Date.now();
    const keys = [...this.touched];
    this.touched.clear();
    await Promise.all(
      keys.map((key) => {
        const [kind, id] = key.split(':') as [BalanceKind, string];
        this.unverified.add(key);
        if (!this.covers(kind, Number(id))) return null;
        return this.register(kind, Number(id)).catch((error: unknown) => this.failed([[kind, Number(id)]], error));
      }),
    );
    // A database read each: a few per round, the rest wait for the next.
    const verify = [...this.unverified].slice(0, VERIFY_PER_ROUND);
    await Promise.all(verify.map((key) => this.verify(key)));
  }

  private async verify(key: string): Promise<void> {
    const [kind, id] = key.split(':') as [BalanceKind, string];
    const { pending } = this.ledger.own(kind, Number(id));
    if (!this.covers(kind, Number(id)) || pending !== 0) return;
    try {
      const version = (await this.client.hget(this.guardKey, 'ver')) ?? '0';
      // The database away is no fault of Redis: try again next round.
      const database = await this.ledger.databaseValue(kind, Number(id)).catch(() => null);
      if (database === null) return;
      const args = [database, version, Date.now()];
      const verdict = await this.client.eval(VERIFY, 2, this.key(kind, Number(id)), this.guardKey, ...args);
      if (verdict !== 2) this.unverified.delete(key);
    } catch (error) {
      this.failed([[kind, Number(id)]], error);
    }
  }

  /** Rebuilds every balance served locally, once Redis answers and this node's flushes are idle. */
  private async resync(): Promise<void> {
    if (this.resyncing || !this.health.up) return;
    this.resyncing = true;
    try {
      await this.ledger.flushIdle();
      if (this.guardLeft) await this.endGuard();
      for (const key of [...this.local]) {
        const [kind, id] = key.split(':') as [BalanceKind, string];
        await this.build(kind, Number(id), true);
      }
    } catch (error) {
      this.health.failed(error);
    } finally {
      this.resyncing = false;
    }
  }

  private rebuild(kind: BalanceKind, id: number): Promise<void> {
    this.changedLocally(kind, id);
    return this.health.up ? this.resync() : Promise.resolve();
  }

  /** Builds a balance from the database and this node's pending (replacing it, or only when missing). */
  private build(kind: BalanceKind, id: number, replace: boolean): Promise<void> {
    return this.exclusive(kind, id, async () => {
      for (;;) {
        const version = (await this.client.hget(this.guardKey, 'ver')) ?? '0';
        const database = await this.ledger.databaseValue(kind, id);
        const { pending, written } = this.ledger.own(kind, id);
        const key = this.key(kind, id);
        const args = [this.node, pending, written, database, version, Date.now(), replace ? 1 : 0];
        const sent = this.client.eval(SEED, 2, key, this.guardKey, ...args);
        // From the moment the step is sent, this node's changes are mirrored again (they run after it in Redis).
        if (replace) this.local.delete(keyOf(kind, id));
        const built = (await sent.catch((error: unknown) => {
          if (replace) this.changedLocally(kind, id);
          throw error;
        })) as number;
        if (built !== 2) return;
        console.error('DBGSEED2', this.node, kind, id, JSON.stringify(await this.client.hgetall(this.guardKey)));
        if (replace) this.changedLocally(kind, id);
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }).then(() => undefined);
  }

  /** Registers this node (or corrects its share); `unflushed`: written already but not in the balance's D. */
  private register(kind: BalanceKind, id: number, unflushed = 0): Promise<void> {
    return this.exclusive(kind, id, async () => {
      const { pending, written } = this.ledger.own(kind, id);
      const key = this.key(kind, id);
      return this.client.eval(ASSERT, 1, key, this.node, pending + unflushed, written - unflushed);
    }).then(() => undefined);
  }

  /**
   * Runs `work` with no reservation of this node in flight on the balance and none starting meanwhile, so the
   * pending it sends is exactly what Redis has seen of this node (a reservation's reply is applied at once).
   */
  private exclusive<T>(kind: BalanceKind, id: number, work: () => Promise<T>): Promise<T> {
    const key = keyOf(kind, id);
    const before = this.locks.get(key) ?? Promise.resolve();
    const run = before.then(async () => {
      if ((this.inFlight.get(key) ?? 0) > 0) {
        await new Promise<void>((resolve) => {
          const waiting = this.drained.get(key) ?? [];
          waiting.push(resolve);
          this.drained.set(key, waiting);
        });
      }
      return work();
    });
    const lock = run.then(
      () => undefined,
      () => undefined,
    );
    this.locks.set(key, lock);
    void lock.then(() => {
      if (this.locks.get(key) === lock) this.locks.delete(key);
    });
    return run;
  }

  private enter(balances: Array<[BalanceKind, number]>): void {
    for (const [kind, id] of balances) {
      const key = keyOf(kind, id);
      this.inFlight.set(key, (this.inFlight.get(key) ?? 0) + 1);
    }
  }

  private leave(balances: Array<[BalanceKind, number]>): void {
    for (const [kind, id] of balances) {
      const key = keyOf(kind, id);
      const count = (this.inFlight.get(key) ?? 1) - 1;
      if (count > 0) {
        this.inFlight.set(key, count);
        continue;
      }
      this.inFlight.delete(key);
      for (const resolve of this.drained.get(key) ?? []) resolve();
      this.drained.delete(key);
    }
  }
}
