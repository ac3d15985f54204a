import { type BillingPreference, BillingPreference as Preference } from '@gateway/shared';
import type { BooksRepo } from '../db/repos/books.js';
import type { SubscriptionMeta } from '../db/repos/subscriptions.js';
import type { NewLog } from '../db/schema.js';
import { nowSeconds } from '../db/sql-helpers.js';
import { SerialRun } from '../lib/serial-run.js';
import type { BalanceKind, FlushEntry, LedgerSide, SharedBalances } from './shared-balances.js';

/**
 * One balance: the database value when loaded, the settled charges not yet written there, and the reservations of
 * requests still running. Reservations live only in memory (and in Redis with several nodes): they are never
 * written, so a crash cannot turn one into a charge, and nothing is left to give back after it.
 */
interface Balance {
  base: number;
  /** Settled changes not yet in the database (negative: charges). */
  pending: number;
  /** Open reservations (positive). */
  held: number;
  stale: boolean;
  /** Written to the database by this node (flushed pending and credits) in total: its share in Redis. */
  written: number;
}

/** A settled request (its charge and its log row) or a log row alone, in the order they happened. */
interface Entry {
  userId: number;
  tokenId: number | null;
  /** The subscription that paid (null: the wallet). */
  subscriptionId: number | null;
  channelId: number | null;
  /** What the request cost; 0 for a log row alone. */
  quota: number;
  /** False for a log row alone: it moves no money and counts no request. */
  settled: boolean;
  log: NewLog | null;
}

/**
 * `token_exhausted`: the token has nothing left at all (as opposed to less than this request needs);
 * `subscription_quota`: only subscriptions may pay (subscription_only) and none has enough left this period.
 */
export type ReserveFailure = 'user_quota' | 'token_quota' | 'token_exhausted' | 'subscription_quota';

/** What a reservation was taken from: the subscription (by id) or the wallet (null); settle and refund go there. */
export interface Reservation {
  failure: ReserveFailure | null;
  subscriptionId: number | null;
}

/** Where the ledger reads a user's active subscriptions (starting any period that is due first). */
export type SubscriptionSource = (userId: number) => Promise<SubscriptionMeta[]>;

/** A user's active subscriptions as last read, cheapest to spend first (the earliest to end). */
interface UserSubscriptions {
  list: SubscriptionMeta[];
  stale: boolean;
  /** Re-read after this (ms): a plan bought or cancelled on another node shows up here within it. */
  readAt: number;
}

/** How long a user's list of subscriptions is trusted before it is read again (other nodes' purchases). */
const SUBSCRIPTION_LIST_TTL_MS = 30_000;

/** Entries that make a flush start at once instead of waiting for the timer. */
const FULL_BATCH = 500;
/**
 * Entries kept while the database refuses them. Past this the oldest are dropped, each with its charge given back,
 * so the books still agree (and memory stays bounded through a long outage).
 */
const MAX_BUFFERED = 100_000;

/**
 * The quota ledger of this node. Reserving and settling touch only memory, so the relay does no database round
 * trip per request. Every settled request becomes an entry (its charge and its usage-log row); every flush
 * interval, on a full batch and on shutdown the entries are written in chunks, each chunk's log rows and balance
 * increments (`quota = quota - spent`) in one transaction. So at any instant a crash may come, every balance in the
 * database equals its start minus the charges logged against it; a crash loses at most the entries of one
 * interval, charge and log row together. Open reservations are never written. Check-and-take happens without an
 * await in between, so concurrent requests can never reserve more than a balance holds.
 * With several nodes (Redis configured) the live balances are shared through Redis instead (SharedBalances): the
 * check-and-take happens there atomically and every change is mirrored there; this ledger still writes its own
 * node's entries to the database and keeps a local view for the notices and pre-checks. While Redis is down or
 * slow it serves the balances itself again, against the database value plus its own pending (shared-balances.ts
 * says how Redis is rebuilt afterwards, and how a dead node's reservations leave it).
 */
export class QuotaLedger {
  private users = new Map<number, Balance>();
  private tokens = new Map<number, Balance>();
  /** Subscriptions' quota left in their current period, by user_subscriptions id. */
  private subscriptions = new Map<number, Balance>();
  private userSubscriptions = new Map<number, UserSubscriptions>();
  private subscriptionReads = new Map<number, Promise<void>>();
  private subscriptionSource: SubscriptionSource | null = null;
  private entries: Entry[] = [];
  private loading = new Map<string, Promise<void>>();
  private readonly flushes = new SerialRun(() => this.write());
  private timer: NodeJS.Timeout | null = null;
  private shared: SharedBalances | null = null;
  /** Chunks sent and not yet applied, and chunks applied so far: a balance read overlapping either reads again. */
  private chunksInFlight = 0;
  private chunksApplied = 0;

  constructor(
    private readonly books: BooksRepo,
    private readonly onFlushError: (error: unknown, dropped: number) => void = () => {},
  ) {}

  /** Several nodes: balances are checked and taken in Redis from now on. */
  shareThrough(shared: SharedBalances): void {
    this.shared = shared;
  }

  /** Subscriptions are read through `source` from now on (without one, only wallets pay). */
  readSubscriptionsFrom(source: SubscriptionSource): void {
    this.subscriptionSource = source;
  }

  /** A user's subscriptions changed (bought, renewed, ended): the list is read again before the next request. */
  subscriptionsChanged(userId: number): void {
    const entry = this.userSubscriptions.get(userId);
    if (entry) entry.stale = true;
    // A read under way may have run before the change: it must not become the list.
    this.subscriptionReads.delete(userId);
  }

  /** This node's side of its balances, as the shared balances read it. */
  side(): LedgerSide {
    return {
      own: (kind, id) => {
        const balance = this.map(kind).get(id);
        return { pending: balance ? balance.pending - balance.held : 0, written: balance?.written ?? 0 };
      },
      databaseValue: (kind, id) => this.readBase(kind, id),
      flushIdle: () => this.flushes.idle(),
      wentLocal: () => {
        for (const map of [this.users, this.tokens, this.subscriptions]) {
          for (const balance of map.values()) balance.stale = true;
        }
      },
    };
  }

  private map(kind: BalanceKind): Map<number, Balance> {
    return kind === 'user' ? this.users : kind === 'token' ? this.tokens : this.subscriptions;
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
    this.shared?.stop();
  }

  /** Loads the balances a request needs (a database read only the first time, or after a change elsewhere). */
  async prepare(userId: number, tokenId: number | null): Promise<void> {
    await Promise.all([
      this.ensure('user', userId),
      tokenId === null ? null : this.ensure('token', tokenId),
      this.ensureSubscriptions(userId),
    ]);
  }

  /**
   * The user's active subscriptions and their balances. Read again (waiting for it) when changed here and when a
   * period boundary or an end has passed (the read starts the due period: subscriptions/lifecycle.ts); after the
   * TTL the list is read again in the background while the request goes on with the one it has.
   */
  private async ensureSubscriptions(userId: number): Promise<void> {
    const source = this.subscriptionSource;
    if (!source) return;
    // Bounded: a list read just as another node moves a boundary may still show it passed once.
    for (let attempt = 0; attempt < 3; attempt++) {
      const entry = this.userSubscriptions.get(userId);
      const now = Date.now();
      const seconds = Math.floor(now / 1000);
      const due = (sub: SubscriptionMeta) =>
        sub.endTime <= seconds || (sub.nextResetTime > 0 && sub.nextResetTime <= seconds);
      if (entry && !entry.stale && (!entry.list.some(due) || attempt === 2)) {
        if (now - entry.readAt > SUBSCRIPTION_LIST_TTL_MS) this.readSubscriptions(userId, source).catch(() => {});
        await Promise.all(entry.list.filter((sub) => !due(sub)).map((sub) => this.ensure('subscription', sub.id)));
        return;
      }
      await this.readSubscriptions(userId, source);
    }
  }

  /** One read of a user's list at a time; a read that a change overtook (subscriptionsChanged) is not kept. */
  private readSubscriptions(userId: number, source: SubscriptionSource): Promise<void> {
    const running = this.subscriptionReads.get(userId);
    if (running) return running;
    let read!: Promise<void>;
    read = (async () => {
      const list = await source(userId);
      if (this.subscriptionReads.get(userId) !== read) return;
      const previous = this.userSubscriptions.get(userId);
      // A period that started elsewhere (another node's read, the master's job) moved the boundary: re-read it.
      const before = new Map((previous?.list ?? []).map((sub) => [sub.id, sub.nextResetTime]));
      for (const sub of list) {
        const boundary = before.get(sub.id);
        if (boundary !== undefined && boundary !== sub.nextResetTime) this.markStale('subscription', sub.id);
      }
      this.userSubscriptions.set(userId, { list, stale: false, readAt: Date.now() });
    })().finally(() => {
      if (this.subscriptionReads.get(userId) === read) this.subscriptionReads.delete(userId);
    });
    this.subscriptionReads.set(userId, read);
    return read;
  }

  available(kind: BalanceKind, id: number): number {
    const balance = this.map(kind).get(id);
    return balance ? balance.base + balance.pending - balance.held : 0;
  }

  /** A loaded, current balance's live value (reservations taken off), or null when not held here. */
  live(kind: BalanceKind, id: number): number | null {
    const balance = this.map(kind).get(id);
    return balance && !balance.stale ? balance.base + balance.pending - balance.held : null;
  }

  /** The user's usable subscriptions as last read (for the relay and the console), earliest end first. */
  activeSubscriptions(userId: number): readonly SubscriptionMeta[] {
    const seconds = Math.floor(Date.now() / 1000);
    return (this.userSubscriptions.get(userId)?.list ?? []).filter((sub) => sub.endTime > seconds);
  }

  /**
   * Takes `amount` from the first source the user's billing preference allows that has enough (a subscription's
   * period quota or the wallet) and from the token, or nothing at all. Call prepare() first. Without an await in
   * between on one node, so concurrent requests never reserve more than a period holds.
   */
  reserveFor(
    userId: number,
    tokenId: number | null,
    amount: number,
    tokenUnlimited: boolean,
    preference: BillingPreference,
    only?: number | null,
  ): Reservation | Promise<Reservation> {
    // Only balances already loaded: a list another request just read may name one whose read is still under way.
    const subs =
      preference === Preference.WalletOnly
        ? []
        : this.activeSubscriptions(userId)
            .map((sub) => sub.id)
            .filter((id) => this.subscriptions.has(id));
    // `only`: a session's later reservations come from the source its first one did (its charges settle there).
    const sources: Array<number | null> =
      only !== undefined
        ? [only]
        : preference === Preference.WalletFirst
          ? [null, ...subs]
          : preference === Preference.SubscriptionOnly
            ? subs
            : preference === Preference.WalletOnly
              ? [null]
              : [...subs, null];
    if (sources.length === 0) return { failure: 'subscription_quota', subscriptionId: null };
    const walletAllowed = sources.includes(null);
    const attempt = (index: number, last: ReserveFailure | null): Reservation | Promise<Reservation> => {
      if (index >= sources.length) {
        const failure = last === 'user_quota' && !walletAllowed ? 'subscription_quota' : last;
        return { failure, subscriptionId: null };
      }
      const source = sources[index] ?? null;
      const result = this.reserveFrom(
        source === null ? 'user' : 'subscription',
        source ?? userId,
        userId,
        tokenId,
        amount,
        tokenUnlimited,
      );
      const next = (failure: ReserveFailure | null): Reservation | Promise<Reservation> => {
        if (failure === null) return { failure: null, subscriptionId: source };
        // The token refuses whichever source pays: no point trying the others.
        if (failure !== 'user_quota') return { failure, subscriptionId: null };
        return attempt(index + 1, failure);
      };
      return result instanceof Promise ? result.then(next) : next(result);
    };
    return attempt(0, null);
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
    return this.reserveFrom('user', userId, userId, tokenId, amount, tokenUnlimited);
  }

  /** Takes `amount` from one payer (the user's wallet or a subscription) and the token. */
  private reserveFrom(
    payerKind: 'user' | 'subscription',
    payerId: number,
    userId: number,
    tokenId: number | null,
    amount: number,
    tokenUnlimited: boolean,
  ): ReserveFailure | null | Promise<ReserveFailure | null> {
    const user = this.map(payerKind).get(payerId);
    const token = tokenId === null || tokenUnlimited ? null : this.tokens.get(tokenId);
    if (!user) throw new Error(`ledger: ${payerKind} ${payerKind === 'user' ? userId : payerId} not prepared`);
    if (tokenId !== null && !tokenUnlimited && !token) throw new Error(`ledger: token ${tokenId} not prepared`);
    const shared = this.shared;
    const sharedToken = token ? tokenId : null;
    if (shared?.covers(payerKind, payerId) && (sharedToken === null || shared.covers('token', sharedToken)))
      return this.reserveShared(shared, user, payerKind, payerId, sharedToken, token, amount);
    return this.reserveLocal(user, payerKind, payerId, sharedToken, token, amount);
  }

  /** Check and take in memory (one node, or this node while Redis cannot be used). */
  private reserveLocal(
    user: Balance,
    payerKind: 'user' | 'subscription',
    payerId: number,
    tokenId: number | null,
    token: Balance | null | undefined,
    amount: number,
  ): ReserveFailure | null {
    this.shared?.fallBack();
    const userLeft = user.base + user.pending - user.held;
    if (userLeft <= 0 || userLeft < amount) return 'user_quota';
    const tokenLeft = token ? token.base + token.pending - token.held : 0;
    if (token && (tokenLeft <= 0 || tokenLeft < amount)) return 'token_quota';
    user.held += amount;
    this.shared?.changedLocally(payerKind, payerId);
    if (token && tokenId !== null) {
      token.held += amount;
      this.shared?.changedLocally('token', tokenId);
    }
    return null;
  }

  private async reserveShared(
    shared: SharedBalances,
    user: Balance,
    payerKind: 'user' | 'subscription',
    payerId: number,
    tokenId: number | null,
    token: Balance | null | undefined,
    amount: number,
  ): Promise<ReserveFailure | null> {
    const result = await shared.reserve([payerKind, payerId], tokenId, amount, (taken) => {
      user.held += amount;
      // The local view follows the shared balance, so notices compare against what is really left.
      user.base = taken.userLeft - user.pending + user.held;
      if (token) {
        token.held += amount;
        token.base = taken.tokenLeft - token.pending + token.held;
      }
    });
    // Redis could not be used: this node answers from its own ledger.
    if (result === null) return this.reserveLocal(user, payerKind, payerId, tokenId, token, amount);
    if (result.failure === 'token_quota' && result.tokenLeft <= 0) return 'token_exhausted';
    return result.failure;
  }

  /**
   * Turns a reservation into the real cost: the reservation is released and the cost becomes an entry, written
   * with its log row (if any) in the next flush. A cost above the reservation may take a balance below zero (the
   * work was done); it is never lost. Unlimited tokens were not reserved against, but their used quota counts.
   */
  settle(
    userId: number,
    tokenId: number | null,
    reserved: number,
    actual: number,
    channelId: number | null,
    tokenUnlimited: boolean,
    log: NewLog | null = null,
    subscriptionId: number | null = null,
  ): void {
    const [payerKind, payerId] = this.payer(userId, subscriptionId);
    const user = this.balance(this.map(payerKind), payerId);
    user.held -= reserved;
    user.pending -= actual;
    this.shared?.adjust(payerKind, payerId, reserved - actual);
    if (tokenId !== null) {
      const token = this.balance(this.tokens, tokenId);
      const released = tokenUnlimited ? 0 : reserved;
      token.held -= released;
      token.pending -= actual;
      this.shared?.adjust('token', tokenId, released - actual);
    }
    this.push({ userId, tokenId, subscriptionId, channelId, quota: actual, settled: true, log });
  }

  private payer(userId: number, subscriptionId: number | null): ['user' | 'subscription', number] {
    return subscriptionId === null ? ['user', userId] : ['subscription', subscriptionId];
  }

  /** Gives a whole reservation back (the request failed before any work was billed). */
  refund(
    userId: number,
    tokenId: number | null,
    reserved: number,
    tokenUnlimited: boolean,
    subscriptionId: number | null = null,
  ): void {
    const [payerKind, payerId] = this.payer(userId, subscriptionId);
    this.balance(this.map(payerKind), payerId).held -= reserved;
    this.shared?.adjust(payerKind, payerId, reserved);
    if (tokenId !== null && !tokenUnlimited) {
      this.balance(this.tokens, tokenId).held -= reserved;
      this.shared?.adjust('token', tokenId, reserved);
    }
  }

  /** A usage-log row that moves no money (an error, a refusal), written in the same batches as the charges. */
  appendLog(row: NewLog): void {
    this.push({
      userId: row.user_id ?? 0,
      tokenId: null,
      subscriptionId: null,
      channelId: null,
      quota: 0,
      settled: false,
      log: row,
    });
  }

  /** Log rows and entries waiting for the next flush (for /metrics). */
  pendingEntries(): number {
    return this.entries.length;
  }

  private push(entry: Entry): void {
    this.entries.push(entry);
    if (this.entries.length % FULL_BATCH === 0) void this.flush();
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
  markStale(kind: BalanceKind, id: number): void {
    const balance = this.map(kind).get(id);
    if (balance) balance.stale = true;
    // A read under way may have run before the change: it must not become the balance (see ensure).
    this.loading.delete(`${kind}:${id}`);
    this.shared?.forget(kind, id);
  }

  /**
   * Writes every entry made before the call. A flush under way wrote a snapshot taken earlier, so it is followed by
   * another; calls made meanwhile share that one.
   */
  flush(): Promise<void> {
    return this.flushes.request();
  }

  /** How many balances wait for the next flush, for /metrics (walks every balance: scrape time only). */
  pendingWrites(): { users: number; tokens: number; channels: number } {
    let users = 0;
    let tokens = 0;
    for (const balance of this.users.values()) if (balance.pending !== 0) users++;
    for (const balance of this.tokens.values()) if (balance.pending !== 0) tokens++;
    const channels = new Set(this.entries.map((entry) => entry.channelId).filter((id) => id !== null)).size;
    return { users, tokens, channels };
  }

  /** Writes the entries present now, chunk by chunk (entries made meanwhile wait for the next run), then lets the
   * shared balances state this node's shares again. */
  private async write(): Promise<void> {
    await this.writeEntries();
    await this.shared?.reassertShares();
  }

  private async writeEntries(): Promise<void> {
    let left = this.entries.length;
    if (left === 0) return;
    let written = false;
    while (left > 0) {
      const chunk = this.entries.slice(0, Math.min(left, this.books.chunkSize));
      if (!(await this.writeChunk(chunk))) break;
      this.entries.splice(0, chunk.length);
      left -= chunk.length;
      written = true;
    }
    if (!written || !this.shared) return;
    // Served locally meanwhile: other nodes' writes show up in the database, so the next request re-reads it.
    for (const kind of ['user', 'token', 'subscription'] as const) {
      for (const [id, balance] of this.map(kind)) if (!this.shared.covers(kind, id)) balance.stale = true;
    }
  }

  /** One chunk in one transaction; false when it failed (the chunk stays queued, oldest entries past the cap go). */
  private async writeChunk(chunk: Entry[]): Promise<boolean> {
    const users = new Map<number, { id: number; spent: number; used: number; requests: number }>();
    const subscriptions = new Map<number, { id: number; spent: number }>();
    const tokens = new Map<number, { id: number; spent: number }>();
    const channels = new Map<number, { id: number; spent: number }>();
    const logs: NewLog[] = [];
    for (const entry of chunk) {
      if (entry.log) logs.push(entry.log);
      if (!entry.settled) continue;
      const user = users.get(entry.userId) ?? { id: entry.userId, spent: 0, used: 0, requests: 0 };
      user.used += entry.quota;
      user.requests += 1;
      if (entry.subscriptionId === null) user.spent += entry.quota;
      else {
        const sub = subscriptions.get(entry.subscriptionId) ?? { id: entry.subscriptionId, spent: 0 };
        sub.spent += entry.quota;
        subscriptions.set(entry.subscriptionId, sub);
      }
      users.set(entry.userId, user);
      if (entry.tokenId !== null) {
        const token = tokens.get(entry.tokenId) ?? { id: entry.tokenId, spent: 0 };
        token.spent += entry.quota;
        tokens.set(entry.tokenId, token);
      }
      if (entry.channelId !== null && entry.quota !== 0) {
        const channel = channels.get(entry.channelId) ?? { id: entry.channelId, spent: 0 };
        channel.spent += entry.quota;
        channels.set(entry.channelId, channel);
      }
    }
    const moving: FlushEntry[] = [
      ...[...users.values()].map((u) => ({ kind: 'user' as const, id: u.id, amount: -u.spent })),
      ...[...tokens.values()].map((t) => ({ kind: 'token' as const, id: t.id, amount: -t.spent })),
      ...[...subscriptions.values()].map((t) => ({ kind: 'subscription' as const, id: t.id, amount: -t.spent })),
    ].filter((entry) => entry.amount !== 0);
    this.chunksInFlight++;
    try {
      const guard = this.shared ? await this.shared.beginFlush(moving) : null;
      try {
        await this.books.write({
          logs,
          users: [...users.values()],
          tokens: [...tokens.values()],
          subscriptions: [...subscriptions.values()],
          channels: [...channels.values()],
          now: nowSeconds(),
        });
      } catch (error) {
        if (guard) await this.shared?.endFlush(guard, false);
        this.onFlushError(error, this.dropOverflow());
        return false;
      }
      for (const { kind, id, amount } of moving) {
        const balance = this.balance(this.map(kind), id);
        balance.base += amount;
        balance.pending -= amount;
        balance.written += amount;
      }
      this.chunksApplied++;
      if (guard) await this.shared?.endFlush(guard, true);
      return true;
    } finally {
      this.chunksInFlight--;
    }
  }

  /** Past the cap, the oldest entries go with their charges given back, so balances and logs still agree. */
  private dropOverflow(): number {
    const overflow = this.entries.length - MAX_BUFFERED;
    if (overflow <= 0) return 0;
    for (const entry of this.entries.splice(0, overflow)) {
      if (!entry.settled || entry.quota === 0) continue;
      const [payerKind, payerId] = this.payer(entry.userId, entry.subscriptionId);
      this.balance(this.map(payerKind), payerId).pending += entry.quota;
      this.shared?.adjust(payerKind, payerId, entry.quota);
      if (entry.tokenId !== null) {
        this.balance(this.tokens, entry.tokenId).pending += entry.quota;
        this.shared?.adjust('token', entry.tokenId, entry.quota);
      }
    }
    return overflow;
  }

  private balance(map: Map<number, Balance>, id: number): Balance {
    let balance = map.get(id);
    if (!balance) {
      // Settling something never prepared (e.g. after a stale drop): keep the change, load the base lazily.
      balance = { base: 0, pending: 0, held: 0, stale: true, written: 0 };
      map.set(id, balance);
    }
    return balance;
  }

  private async ensure(kind: BalanceKind, id: number): Promise<void> {
    const map = this.map(kind);
    const key = `${kind}:${id}`;
    // Loops when the read it waited for was superseded by markStale (a change landed while it ran): the balance is
    // then still missing or stale, and a fresh read is started or joined.
    for (let balance = map.get(id); !balance || balance.stale; balance = map.get(id)) {
      await (this.loading.get(key) ?? this.load(kind, id, key));
    }
  }

  /** Reads a balance's base; registered under `key` until it ends, or until markStale drops it. */
  private load(kind: BalanceKind, id: number, key: string): Promise<void> {
    const map = this.map(kind);
    // Assigned before its first use: the body below reaches `read` only after an await.
    let read!: Promise<void>;
    read = (async () => {
      // A chunk in flight may or may not be in the row yet, and one applied while reading moved pending into base:
      // either way base and pending would disagree, so read again.
      let base: number;
      do {
        while (this.chunksInFlight > 0) await this.flushes.idle();
        const applied = this.chunksApplied;
        base = await this.readBase(kind, id);
        if (this.chunksInFlight === 0 && this.chunksApplied === applied) break;
      } while (this.loading.get(key) === read);
      if (this.loading.get(key) !== read) return;
      const current = map.get(id);
      if (current) {
        current.base = base;
        current.stale = false;
      } else {
        map.set(id, { base, pending: 0, held: 0, stale: false, written: 0 });
      }
    })().finally(() => {
      if (this.loading.get(key) === read) this.loading.delete(key);
    });
    this.loading.set(key, read);
    return read;
  }

  private readBase(kind: BalanceKind, id: number): Promise<number> {
    return this.books.readBalance(kind, id);
  }
}
