import { describe, expect, it } from 'vitest';
import { SerialRun } from '../../src/lib/serial-run.js';

/** A job whose runs end only when the test says so, recording when each one started and whether two overlapped. */
function heldJob() {
  const runs: Array<{ started: number; finish(error?: Error): void }> = [];
  let active = 0;
  let overlapped = false;
  let clock = 0;
  const job = () =>
    new Promise<void>((resolve, reject) => {
      active++;
      if (active > 1) overlapped = true;
      runs.push({
        started: ++clock,
        finish: (error) => {
          active--;
          if (error) reject(error);
          else resolve();
        },
      });
    });
  return { job, runs, overlapped: () => overlapped, tick: () => ++clock };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('SerialRun', () => {
  it('starts a run at once when none is under way', async () => {
    const held = heldJob();
    const serial = new SerialRun(held.job);
    const done = serial.request();
    expect(held.runs).toHaveLength(1);
    expect(serial.running).toBe(true);
    held.runs[0]!.finish();
    await done;
    expect(serial.running).toBe(false);
  });

  it('answers a request made during a run only after a run that started after it; a burst shares one follow-up', async () => {
    const held = heldJob();
    const serial = new SerialRun(held.job);
    const first = serial.request();
    const askedAt = held.tick();
    let answered = 0;
    const late = [serial.request(), serial.request(), serial.request()].map((request) =>
      request.then(() => answered++),
    );
    held.runs[0]!.finish();
    await first;
    await settle();
    expect(answered).toBe(0);
    expect(held.runs).toHaveLength(2);
    expect(held.runs[1]!.started).toBeGreaterThan(askedAt);
    held.runs[1]!.finish();
    await Promise.all(late);
    expect(answered).toBe(3);
    expect(held.runs).toHaveLength(2);
    expect(held.overlapped()).toBe(false);
  });

  it('a failed run rejects its own callers; the follow-up still runs for the later ones', async () => {
    const held = heldJob();
    const serial = new SerialRun(held.job);
    const first = serial.request();
    const later = serial.request();
    held.runs[0]!.finish(new Error('database away'));
    await expect(first).rejects.toThrow('database away');
    await settle();
    expect(held.runs).toHaveLength(2);
    held.runs[1]!.finish();
    await expect(later).resolves.toBeUndefined();
  });

  it('never runs twice at once, even when asked again in the moment a run ends', async () => {
    const held = heldJob();
    const serial = new SerialRun(held.job);
    const first = serial.request();
    // Registered before the follow-up was asked for, this callback runs after the first run has ended but before
    // the follow-up starts: it must join the follow-up, not start a run beside it.
    const fromCallback = first.then(() => serial.request());
    const followUp = serial.request();
    held.runs[0]!.finish();
    await first;
    await settle();
    expect(held.runs).toHaveLength(2);
    held.runs[1]!.finish();
    await Promise.all([followUp, fromCallback]);
    expect(held.overlapped()).toBe(false);
  });

  it('idle() waits for the run under way and its follow-up', async () => {
    const held = heldJob();
    const serial = new SerialRun(held.job);
    void serial.request();
    void serial.request();
    let idle = false;
    const waiting = serial.idle().then(() => {
      idle = true;
    });
    held.runs[0]!.finish();
    await settle();
    expect(idle).toBe(false);
    held.runs[1]!.finish();
    await waiting;
    expect(idle).toBe(true);
    await expect(new SerialRun(held.job).idle()).resolves.toBeUndefined();
  });
});
