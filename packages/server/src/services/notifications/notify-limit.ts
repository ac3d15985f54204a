/**
 * At most `count` notices of one type to one user per window (the family's NOTIFY_LIMIT_COUNT per
 * NOTIFICATION_LIMIT_DURATION_MINUTE): a flapping channel or a burst of failures must not flood an inbox. Counted
 * per node in memory; a notice is a courtesy, not a ledger, so a second node may send its own.
 */
export class NotifyLimit {
  private readonly sent = new Map<string, number[]>();

  constructor(
    private readonly count: number,
    private readonly windowMs: number,
  ) {}

  allow(userId: number, type: string, now = Date.now()): boolean {
    const key = `${userId}:${type}`;
    const recent = (this.sent.get(key) ?? []).filter((time) => now - time < this.windowMs);
    if (recent.length >= this.count) {
      this.sent.set(key, recent);
      return false;
    }
    recent.push(now);
    this.sent.set(key, recent);
    return true;
  }
}
