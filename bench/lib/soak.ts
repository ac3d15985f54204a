/** The soak: streaming through the gateway for a long time, to tell a leak from a heap finding its size. */
import { atFixedRate, type LoadClient } from './load.js';
import type { Options } from './options.js';
import { type Parties, type Phase, runPhase } from './phases.js';
import { memory } from './procfs.js';
import { median } from './stats.js';

export interface SoakResult {
  phase: Phase;
  samples: Array<{ atSeconds: number; rss: number }>;
  baselineRss: number;
  finalRss: number;
  peakRss: number;
}

/** Streaming at a fixed rate for a long time while the gateway's RSS is sampled every 5 s. */
export async function soak(options: Options, client: LoadClient, pids: Parties): Promise<SoakResult> {
  const samples: SoakResult['samples'] = [];
  const startedAt = performance.now();
  const sample = () => {
    // A gateway that died is reported by the phase's meter; a timer must not throw on its missing /proc entry.
    if (pids.processes.every((started) => started.child.exitCode === null && started.child.signalCode === null)) {
      samples.push({ atSeconds: (performance.now() - startedAt) / 1000, rss: memory(pids.gateway).rss });
    }
  };
  sample();
  const timer = setInterval(sample, 5000);
  let phase: Phase;
  try {
    phase = await runPhase(
      `gateway soak: streaming at ${options.soakRate}/s for ${options.soakSeconds} s`,
      pids,
      true,
      () => atFixedRate(client, options.soakRate, options.soakSeconds),
    );
  } finally {
    clearInterval(timer);
  }
  sample();
  // The first minute is the heap finding its working size; compare the second minute with the last one (scaled
  // down for short soaks) so that a steady state reads as zero growth and a leak as a positive number.
  const span = options.soakSeconds;
  const edge = Math.min(60, span * 0.2);
  const inWindow = (from: number, to: number) => samples.filter((s) => s.atSeconds >= from && s.atSeconds <= to);
  const baseline = inWindow(edge, 2 * edge);
  const final = inWindow(span - edge, Number.POSITIVE_INFINITY);
  return {
    phase,
    samples,
    baselineRss: median(baseline.map((s) => s.rss)),
    finalRss: median(final.map((s) => s.rss)),
    peakRss: memory(pids.gateway).peakRss,
  };
}
