/**
 * One measured phase: the load it runs, the CPU time each party spent meanwhile, and what other processes on the
 * machine took from the cores we use (a disturbed phase is repeated).
 */

import { failureText, type RunResult } from './load.js';
import { log } from './log.js';
import type { Options } from './options.js';
import { assertRunning, type Pinning, type Started } from './processes.js';
import { cpuBusySeconds, cpuSeconds, memory } from './procfs.js';

/** CPU seconds of each party over one phase: the gateway, the mock, and this process (the load generator). */
export interface PhaseCost {
  gatewaySeconds: number;
  /** The bare Node proxy's (bench/floor-proxy.mjs): it shares the gateway's core and idles outside its phases. */
  floorSeconds: number;
  mockSeconds: number;
  loadSeconds: number;
  /** CPU seconds that processes other than ours (or the hypervisor) took on this machine during the phase. */
  othersSeconds: number;
  /** The same on the load generator's core and on the gateway's core (pinned runs only, NaN otherwise). */
  othersOnLoadCpuSeconds: number;
  othersOnGatewayCpuSeconds: number;
}

export interface Parties {
  gateway: number;
  floor: number;
  mock: number;
  processes: Started[];
  pinning: Pinning | null;
}

export interface Phase {
  name: string;
  /** Whether the gateway serves this phase (then what others do on its core matters). */
  viaGateway: boolean;
  result: RunResult;
  cost: PhaseCost;
  /** Which try was kept, of how many (a phase disturbed by other processes is repeated). */
  attempt: number;
  /** The gateway's resident memory when the phase ended, in bytes: where the peak came from. */
  rssAfter: number;
}

function selfCpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

/** Starts counting CPU time; the returned function gives each party's share since then. */
function startMeter(pids: Parties): () => PhaseCost {
  for (const started of pids.processes) assertRunning(started);
  const before = {
    gateway: cpuSeconds(pids.gateway),
    floor: cpuSeconds(pids.floor),
    mock: cpuSeconds(pids.mock),
    load: selfCpuSeconds(),
    cores: cpuBusySeconds(),
  };
  return () => {
    for (const started of pids.processes) assertRunning(started);
    const cores = cpuBusySeconds().map((busy, index) => busy - (before.cores[index] ?? 0));
    const gatewaySeconds = cpuSeconds(pids.gateway) - before.gateway;
    const floorSeconds = cpuSeconds(pids.floor) - before.floor;
    const mockSeconds = cpuSeconds(pids.mock) - before.mock;
    const loadSeconds = selfCpuSeconds() - before.load;
    const machine = cores.reduce((sum, busy) => sum + busy, 0);
    const { pinning } = pids;
    // /proc counts in 10 ms ticks: clamp the rounding noise at zero.
    return {
      gatewaySeconds,
      floorSeconds,
      mockSeconds,
      loadSeconds,
      othersSeconds: Math.max(0, machine - gatewaySeconds - floorSeconds - mockSeconds - loadSeconds),
      othersOnLoadCpuSeconds: pinning
        ? Math.max(0, (cores[pinning.loadCpu] ?? 0) - mockSeconds - loadSeconds)
        : Number.NaN,
      othersOnGatewayCpuSeconds: pinning
        ? Math.max(0, (cores[pinning.gatewayCpu] ?? 0) - gatewaySeconds - floorSeconds)
        : Number.NaN,
    };
  };
}

/**
 * The share of a CPU that other processes took where it matters for this phase: the load core always, the
 * gateway's core when the gateway is measured, the whole machine when nothing is pinned.
 */
function interference(cost: PhaseCost, seconds: number, viaGateway: boolean): number {
  if (Number.isNaN(cost.othersOnLoadCpuSeconds)) return cost.othersSeconds / seconds;
  const load = cost.othersOnLoadCpuSeconds / seconds;
  return viaGateway ? Math.max(load, cost.othersOnGatewayCpuSeconds / seconds) : load;
}

/** Above this share of a CPU taken by other processes, a phase is repeated and the run is flagged. */
export const DISTURBED = 0.05;
export const phaseInterference = (phase: Phase) =>
  interference(phase.cost, phase.result.elapsedSeconds, phase.viaGateway);

export async function runPhase(
  name: string,
  pids: Parties,
  viaGateway: boolean,
  run: () => Promise<RunResult>,
  attempt = 1,
): Promise<Phase> {
  log(`${name} ...`);
  const meter = startMeter(pids);
  const result = await run();
  const cost = meter();
  const rate = result.ok / result.elapsedSeconds;
  log(
    `  ${result.ok} ok, ${result.failed} failed${result.failed ? ` (${failureText(result)})` : ''}, ` +
      `${Math.round(rate)} req/s over ${result.elapsedSeconds.toFixed(1)} s`,
  );
  return { name, viaGateway, result, cost, attempt, rssAfter: memory(pids.gateway).rss };
}

/**
 * On a shared machine (a test run, a browser) other processes take CPU from the gateway or the load generator and
 * the figures measure the neighbour. Waits, in 2 s looks and for at most `maxSeconds`, until the cores we use are
 * quiet; returns the share of a CPU others took in the last look.
 */
async function waitForQuiet(pids: Parties, maxSeconds: number): Promise<number> {
  const deadline = performance.now() + maxSeconds * 1000;
  let share = Number.POSITIVE_INFINITY;
  let said = false;
  do {
    const meter = startMeter(pids);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    share = interference(meter(), 2, true);
    if (share <= DISTURBED) break;
    if (!said) log(`  other processes are using ${Math.round(share * 100)} % of a CPU: waiting up to ${maxSeconds} s`);
    said = true;
  } while (performance.now() < deadline);
  return share;
}

/**
 * A phase disturbed by other processes is repeated (at most --retries times) after waiting for quiet; the least
 * disturbed try is kept, and the report says which try it was.
 */
export async function measurePhase(
  name: string,
  pids: Parties,
  options: Pick<Options, 'retries' | 'quietWaitSeconds'>,
  run: () => Promise<RunResult>,
): Promise<Phase> {
  // The bare proxy runs on the gateway's core: what others do there matters for its phases too.
  const viaGateway = !name.startsWith('direct');
  let kept: Phase | null = null;
  for (let attempt = 1; attempt <= options.retries + 1; attempt++) {
    if (options.quietWaitSeconds > 0) await waitForQuiet(pids, options.quietWaitSeconds);
    const phase = await runPhase(name, pids, viaGateway, run, attempt);
    if (!kept || phaseInterference(phase) < phaseInterference(kept)) kept = phase;
    if (phaseInterference(phase) <= DISTURBED) break;
    const share = Math.round(phaseInterference(phase) * 100);
    log(`  disturbed: other processes took ${share} % of a CPU${attempt <= options.retries ? '; repeating' : ''}`);
  }
  return kept!;
}

/** One kind of load, measured direct, through the gateway and through the bare Node proxy. */
export interface ThreeWays {
  direct: Phase;
  gateway: Phase;
  floor: Phase;
}

/** Gateway CPU per answered request, in microseconds. */
export const cpuPerRequestUs = (phase: Phase) => (phase.cost.gatewaySeconds / Math.max(1, phase.result.ok)) * 1e6;
/** The same for the bare Node proxy in its own phases. */
export const floorCpuPerRequestUs = (phase: Phase) => (phase.cost.floorSeconds / Math.max(1, phase.result.ok)) * 1e6;
export const throughput = (phase: Phase) => phase.result.ok / phase.result.elapsedSeconds;
/** Share of the load core used by the load generator and the mock together (1 = the core was saturated). */
export const loadCoreBusy = (phase: Phase) =>
  (phase.cost.loadSeconds + phase.cost.mockSeconds) / phase.result.elapsedSeconds;
