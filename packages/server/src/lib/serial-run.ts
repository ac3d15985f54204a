/**
 * One background job (a flush, a cache reload) run one at a time, where a caller must be able to rely on what it
 * asks for: `request()` resolves only after a run that *started after the call* has ended. Handing back the run
 * already under way would be wrong for every user of this: that run took its snapshot (or read its rows) before the
 * caller's change, so a shutdown could end with the last settlements unwritten, or a channel edit be missed by the
 * reload that was meant to pick it up.
 *
 * Requests made while a run is under way share a single follow-up run, so a burst costs two runs, not one per call.
 */
export class SerialRun {
  private current: Promise<void> | null = null;
  private next: Promise<void> | null = null;

  constructor(private readonly job: () => Promise<void>) {}

  get running(): boolean {
    return this.current !== null;
  }

  /** Resolves once no run is under way or waiting, for a reader that must not overlap a run. */
  async idle(): Promise<void> {
    for (let busy = this.next ?? this.current; busy; busy = this.next ?? this.current) {
      await busy.catch(() => {});
    }
  }

  request(): Promise<void> {
    // A follow-up already waiting has not started yet, so it covers this caller too (this also holds in the moment
    // between the current run ending and the follow-up starting, when `current` is already null).
    if (this.next) return this.next;
    if (!this.current) return this.start();
    this.next = this.current.then(
      () => this.followUp(),
      () => this.followUp(),
    );
    return this.next;
  }

  private followUp(): Promise<void> {
    this.next = null;
    return this.start();
  }

  private start(): Promise<void> {
    const run = this.job().finally(() => {
      if (this.current === run) this.current = null;
    });
    this.current = run;
    return run;
  }
}
