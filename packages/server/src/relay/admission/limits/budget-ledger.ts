import type { TokensRepo } from '../../../db/repos/tokens.js';
import type { TokenRow } from '../../../db/schema.js';
import { SerialRun } from '../../../lib/serial-run.js';

interface Spend {
  tokenId: number;
  /** Unix ms of the period the amount belongs to. */
  start: number;
  amount: number;
}

/**
 * What tokens spent in their budget periods, written to the database in batches like the quota ledger (a crash
 * loses at most one interval). The live counts sit in the limit counters; this keeps the settled amounts, and the
 * amounts admitted requests hold until they settle, so a restarted node, or a counter Redis lost, starts from
 * what was really spent (`seeded`). Several nodes write increments, so their writes add up; a write for an older
 * period than the row's is dropped.
 */
export class BudgetLedger {
  private pending = new Map<string, Spend>();
  /** Amounts of admitted requests not settled yet, per token and period (counted by the counters already). */
  private readonly held = new Map<string, number>();
  private readonly flushes = new SerialRun(() => this.write());
  /** Writes and seed reads, one at a time: a seed never sees a spend both in the row and pending, or in neither. */
  private turn: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly tokens: Pick<TokensRepo, 'budgetState' | 'addBudgetSpend'>,
    private readonly onFlushError: (error: unknown) => void = () => {},
  ) {}

  record(tokenId: number, start: number, amount: number): void {
    if (amount === 0) return;
    const key = `${tokenId}:${start}`;
    const found = this.pending.get(key);
    if (found) found.amount += amount;
    else this.pending.set(key, { tokenId, start, amount });
  }

  /** A request admitted against the budget holds `amount` until `letGo` (when it settles or fails). */
  hold(tokenId: number, start: number, amount: number): void {
    const key = `${tokenId}:${start}`;
    this.held.set(key, (this.held.get(key) ?? 0) + amount);
  }

  letGo(tokenId: number, start: number, amount: number): void {
    const key = `${tokenId}:${start}`;
    const left = (this.held.get(key) ?? 0) - amount;
    if (left > 0) this.held.set(key, left);
    else this.held.delete(key);
  }

  /**
   * Runs `use` with what a lost or never-built counter of the period starts from: the row's spend (read now, not a
   * cached copy) plus this node's unwritten and held amounts, computed in the tick `use` runs in, so a settle
   * cannot fall between them. No write runs meanwhile, so the row and pending agree. Other nodes' unwritten
   * spends (at most one flush interval of theirs) are not known here.
   */
  seeded<T>(tokenId: number, start: number, use: (seed: number) => T): Promise<Awaited<T>> {
    return this.oneAtATime(async (): Promise<Awaited<T>> => {
      const row = await this.tokens.budgetState(tokenId);
      const stored = row ? this.spent(row, start) : (this.pending.get(`${tokenId}:${start}`)?.amount ?? 0);
      return await use(stored + (this.held.get(`${tokenId}:${start}`) ?? 0));
    });
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

  private oneAtATime<T>(work: () => Promise<T>): Promise<T> {
    const run = this.turn.then(work, work);
    this.turn = run.catch(() => {});
    return run;
  }

  private write(): Promise<void> {
    return this.oneAtATime(() => this.writePending());
  }

  private async writePending(): Promise<void> {
    if (this.pending.size === 0) return;
    // Oldest period first, so a token whose period turned over gets the old amount before the new one.
    const batch = [...this.pending.values()].sort((a, b) => a.start - b.start);
    this.pending = new Map();
    let written = 0;
    try {
      for (const spend of batch) {
        await this.tokens.addBudgetSpend(spend.tokenId, spend.start, spend.amount);
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
