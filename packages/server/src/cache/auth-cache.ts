import type { TokensRepo } from '../db/repos/tokens.js';
import type { UsersRepo } from '../db/repos/users.js';
import type { TokenRow, UserRow } from '../db/schema.js';
import { listen, type RedisPair } from './redis.js';

const CHANNEL = 'gateway:auth';
const MISSING_TTL_MS = 5_000;

interface Entry<T> {
  value: T | null;
  expiresAt: number;
}

/**
 * API tokens by key and users by id, so authenticating a relay request is a map lookup. Entries live
 * SYNC_FREQUENCY seconds (changes made on another node without Redis show up within that), are dropped at once
 * when this node changes them, and are dropped on every node through Redis when configured. Unknown keys are
 * remembered briefly so a flood of bad keys cannot turn into a flood of queries.
 */
export class AuthCache {
  private tokens = new Map<string, Entry<TokenRow>>();
  private users = new Map<number, Entry<UserRow>>();
  private readonly ttlMs: number;
  /**
   * Counts drops. A read that began before a drop may hold the row as it was before the change (a token just
   * disabled, a user just banned), so it answers its own request but is not kept for the next ones.
   */
  private drops = 0;
  /** Lookups answered from memory (unknown keys included) and those that read the database, for /metrics. */
  readonly lookups = { tokenHits: 0, tokenMisses: 0, userHits: 0, userMisses: 0 };

  constructor(
    private readonly tokensRepo: TokensRepo,
    private readonly usersRepo: UsersRepo,
    private readonly redis: RedisPair | null,
    ttlSeconds: number,
  ) {
    this.ttlMs = ttlSeconds * 1000;
  }

  async start(): Promise<void> {
    if (!this.redis) return;
    await listen(this.redis, CHANNEL, (message) => {
      this.drops++;
      if (message.startsWith('t:')) this.tokens.delete(message.slice(2));
      if (message.startsWith('u:')) this.users.delete(Number(message.slice(2)));
    });
  }

  async token(key: string): Promise<TokenRow | null> {
    const cached = this.tokens.get(key);
    if (cached && cached.expiresAt > Date.now()) {
      this.lookups.tokenHits++;
      return cached.value;
    }
    this.lookups.tokenMisses++;
    const drops = this.drops;
    const row = (await this.tokensRepo.findByKey(key)) ?? null;
    if (drops === this.drops)
      this.tokens.set(key, { value: row, expiresAt: Date.now() + (row ? this.ttlMs : MISSING_TTL_MS) });
    return row;
  }

  async user(id: number): Promise<UserRow | null> {
    const cached = this.users.get(id);
    if (cached && cached.expiresAt > Date.now()) {
      this.lookups.userHits++;
      return cached.value;
    }
    this.lookups.userMisses++;
    const drops = this.drops;
    const row = (await this.usersRepo.findById(id)) ?? null;
    if (drops === this.drops)
      this.users.set(id, { value: row, expiresAt: Date.now() + (row ? this.ttlMs : MISSING_TTL_MS) });
    return row;
  }

  /** Entries held (expired ones stay until looked up again). */
  size(): { tokens: number; users: number } {
    return { tokens: this.tokens.size, users: this.users.size };
  }

  async dropToken(key: string): Promise<void> {
    this.drops++;
    this.tokens.delete(key);
    await this.announce(`t:${key}`);
  }

  async dropUser(id: number): Promise<void> {
    this.drops++;
    this.users.delete(id);
    await this.announce(`u:${id}`);
  }

  /** Forgets everything (Redis came back: drops announced meanwhile were missed). */
  clear(): void {
    this.drops++;
    this.tokens.clear();
    this.users.clear();
  }

  /** Other nodes hear of it; while Redis is away they miss it and clear their caches when it returns. */
  private async announce(message: string): Promise<void> {
    await this.redis?.client.publish(CHANNEL, message).catch((error: unknown) => this.redis?.health.failed(error));
  }
}
