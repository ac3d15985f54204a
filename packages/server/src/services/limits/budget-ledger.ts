import { type Kysely, sql } from 'kysely';
import type { Database, TokenRow } from '../../db/schema.js';
import { SerialRun } from '../../lib/serial-run.js';

interface Spend {
  tokenId: number;
  /** Unix ms of the period the amount belongs to. */
  start: number;
  amount: number;
}

/**
 * What tokens spent in their budget periods, written to the database in batches like the quota ledger (a crash
 * loses at most one interval). The live counts sit in the limit counters; this keeps the settled amounts so a
 * restarted node, or a counter Redis lost, starts from what was really spent. Several nodes write increments, so
 * their writes add up; a write for an older period than the row's is dropped.
 */
export class BudgetLedger {
  private pending = new Map<string, Spend>();
  private readonly flushes = new SerialRun(() => this.write());
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly onFlushError: (error: unknown) => void = () => {},
  ) {}

  record(tokenId: number, start: number, amount: number): void {
    if (amount === 0) return;
    const key = `${tokenId}:${start}`;
    const found = this.pending.get(key);
    if (found) found.amount += amount;
    else this.pending.set(key, { tokenId, start, amount });
  }

  /** The amount spent in the period starting at `start`, as the row and this node's unwritten spends say. */
  spent(token: Pick<TokenRow, 'id' | 'budget_used' | 'budget_period_start'>, start: number): number {
    const stored = Number(token.budget_period_start) === start ? Number(token.budget_used) : 0;
    return stored + (this.pending.get(`${token.id}:${start}`)?.amount ?? 0);
  }

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.flush().catch(() => {}), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush().catch(() => {});
  }

  flush(): Promise<void> {
    return this.flushes.request();
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    // Oldest period first, so a token whose period turned over gets the old amount before the new one.
    const batch = [...this.pending.values()].sort((a, b) => a.start - b.start);
    this.pending = new Map();
    let written = 0;
    try {
      for (const spend of batch) {
        await this.db
          .updateTable('tokens')
          .set({
            budget_used: sql`CASE WHEN budget_period_start = ${spend.start} THEN budget_used + ${spend.amount} ELSE ${spend.amount} END`,
            budget_period_start: spend.start,
          })
          .where('id', '=', spend.tokenId)
          .where('budget_period_start', '<=', spend.start)
          .execute();
        written++;
      }
    } catch (error) {
      // What was not written goes back, merged with what was spent meanwhile.
      for (const spend of batch.slice(written)) this.record(spend.tokenId, spend.start, spend.amount);
      this.onFlushError(error);
      throw error;
    }
  }
}
