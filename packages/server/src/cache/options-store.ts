import { defaultOptionValues, isOptionKey, type OptionError, type OptionKey, validateOption } from '@gateway/shared';
import type { OptionsRepo } from '../db/repos/options.js';
import { listen, type RedisPair } from './redis.js';

const CHANNEL = 'gateway:options';

type Listener = (key: OptionKey, value: string) => void;

/**
 * All options live in memory: the relay reads them on every request, so a read is a map lookup. Writes go to the
 * database first, then memory, then (with Redis) to every other node; a periodic reload covers nodes without Redis.
 */
export class OptionsStore {
  private values: Record<OptionKey, string> = defaultOptionValues();
  private parsed = new Map<OptionKey, unknown>();
  private listeners: Listener[] = [];
  /** Counts values applied; a reload that sees it move while reading its rows keeps out of the way. */
  private changes = 0;

  constructor(
    private readonly repo: OptionsRepo,
    private readonly redis: RedisPair | null,
  ) {}

  /**
   * Loads stored values over the defaults (at start, then every SYNC_FREQUENCY seconds). Unknown keys in the table
   * (from other versions) are kept out. A value applied while the rows were being read may be newer than its row,
   * so such a round changes nothing: the next one reads it.
   */
  async load(): Promise<void> {
    const changes = this.changes;
    const rows = await this.repo.all();
    if (changes !== this.changes) return;
    for (const { key, value } of rows) {
      if (isOptionKey(key) && this.values[key] !== value) this.apply(key, value);
    }
  }

  async startSync(): Promise<void> {
    if (!this.redis) return;
    await listen(this.redis, CHANNEL, (message) => {
      try {
        const { key, value } = JSON.parse(message) as { key: string; value: string };
        if (isOptionKey(key) && this.values[key] !== value) this.apply(key, value);
      } catch {
        // A malformed message from another version must not crash this node; the periodic reload corrects drift.
      }
    });
  }

  get(key: OptionKey): string {
    return this.values[key];
  }

  bool(key: OptionKey): boolean {
    return this.values[key] === 'true';
  }

  number(key: OptionKey): number {
    const value = Number(this.values[key]);
    return Number.isFinite(value) ? value : 0;
  }

  /** Parsed JSON values are cached until the option changes, so hot paths do not re-parse. */
  json<T>(key: OptionKey): T {
    if (!this.parsed.has(key)) {
      try {
        this.parsed.set(key, JSON.parse(this.values[key]));
      } catch {
        this.parsed.set(key, undefined);
      }
    }
    return this.parsed.get(key) as T;
  }

  all(): Record<OptionKey, string> {
    return { ...this.values };
  }

  onChange(listener: Listener): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((item) => item !== listener);
    };
  }

  /** Validates, persists and applies one option. A refused value changes nothing anywhere. */
  async set(key: string, value: string): Promise<OptionError | null> {
    const error = validateOption(key, value, (other) => (isOptionKey(other) ? this.values[other] : ''));
    if (error) return error;
    const optionKey = key as OptionKey;
    await this.repo.upsert(optionKey, value);
    this.apply(optionKey, value);
    // Saved already: while Redis is away other nodes miss this and read every option again when it returns.
    await this.redis?.client
      .publish(CHANNEL, JSON.stringify({ key: optionKey, value }))
      .catch((error: unknown) => this.redis?.health.failed(error));
    return null;
  }

  private apply(key: OptionKey, value: string): void {
    this.changes++;
    this.values[key] = value;
    this.parsed.delete(key);
    for (const listener of this.listeners) listener(key, value);
  }
}
