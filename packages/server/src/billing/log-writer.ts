import type { NewLog } from '../db/schema.js';
import { SerialRun } from '../lib/serial-run.js';

/**
 * Usage logs are written in batches off the request path: the relay appends to a buffer, a timer (or a full
 * buffer) writes them in one multi-row insert, and shutdown writes what is left. A failed write keeps the rows
 * for the next attempt, up to a cap, so a database hiccup loses nothing and an outage cannot eat all memory.
 * The kept request bodies (relay/admission/body-capture) ride the same way in a writer of their own.
 */
export class LogWriter<Row = NewLog> {
  private buffer: Row[] = [];
  private readonly writes = new SerialRun(() => this.write());
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly repo: { insertMany(rows: Row[]): Promise<void> },
    private readonly onError: (error: unknown, dropped: number) => void = () => {},
    private readonly maxBatch = 500,
    private readonly maxBuffered = 100_000,
  ) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  append(row: Row): void {
    this.buffer.push(row);
    if (this.buffer.length >= this.maxBatch) void this.flush();
  }

  pending(): number {
    return this.buffer.length;
  }

  /** Writes every row appended before the call (a write under way is followed by another). */
  flush(): Promise<void> {
    return this.writes.request();
  }

  private async write(): Promise<void> {
    while (this.buffer.length > 0) {
      const batch = this.buffer.splice(0, this.maxBatch);
      try {
        await this.repo.insertMany(batch);
      } catch (error) {
        this.buffer.unshift(...batch);
        const overflow = Math.max(0, this.buffer.length - this.maxBuffered);
        if (overflow > 0) this.buffer.splice(0, overflow);
        this.onError(error, overflow);
        return;
      }
    }
  }
}
