import type { OptionsStore } from '../cache/options-store.js';
import type { QuotaBucket, QuotaDataRepo } from '../db/repos/quota-data.js';
import { SerialRun } from '../lib/serial-run.js';

/**
 * Dashboard data: consumption aggregated in memory per (user, model, hour) and added to `quota_data` every
 * DataExportInterval minutes (read at each tick, so a change applies without restart) and on shutdown.
 */
export class QuotaExporter {
  private buckets = new Map<string, QuotaBucket>();
  private lastFlush: number;
  private timer: NodeJS.Timeout | null = null;
  private readonly writes = new SerialRun(() => this.write());

  constructor(
    private readonly repo: QuotaDataRepo,
    private readonly options: OptionsStore,
    private readonly onError: (error: unknown) => void = () => {},
    /** The clock, replaceable so a test can let an interval pass without waiting minutes. */
    private readonly now: () => number = Date.now,
  ) {
    this.lastFlush = now();
  }

  start(tickMs = 10_000): void {
    this.timer = setInterval(() => {
      const intervalMs = Math.max(1, this.options.number('DataExportInterval')) * 60_000;
      if (!this.writes.running && this.now() - this.lastFlush >= intervalMs) void this.flush();
    }, tickMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  record(userId: number, username: string, modelName: string, quota: number, tokens: number, at = this.now()): void {
    if (!this.options.bool('DataExportEnabled')) return;
    const hour = Math.floor(at / 3_600_000) * 3600;
    this.merge({ userId, username, modelName, hour, count: 1, quota, tokenUsed: tokens });
  }

  private merge(bucket: QuotaBucket): void {
    const key = `${bucket.userId}\u0000${bucket.modelName}\u0000${bucket.hour}`;
    const existing = this.buckets.get(key);
    if (!existing) {
      this.buckets.set(key, { ...bucket });
      return;
    }
    existing.count += bucket.count;
    existing.quota += bucket.quota;
    existing.tokenUsed += bucket.tokenUsed;
  }

  /** Writes everything recorded before the call (a write under way is followed by another). */
  flush(): Promise<void> {
    return this.writes.request();
  }

  private async write(): Promise<void> {
    this.lastFlush = this.now();
    const batch = [...this.buckets.values()];
    this.buckets = new Map();
    for (let index = 0; index < batch.length; index++) {
      try {
        await this.repo.increment(batch[index]!);
      } catch (error) {
        // Put back what was not written; it merges with anything recorded since.
        for (const bucket of batch.slice(index)) this.merge(bucket);
        this.onError(error);
        return;
      }
    }
  }
}
