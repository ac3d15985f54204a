/**
 * `npm run bench`: the gateway against a local mock upstream, side by side with the mock called directly.
 * See bench/README.md for what each figure means. Builds nothing: run `npm run build` (or
 * `npx tsc -b packages/shared packages/server`) first.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, release, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BENCH_MODEL, type GatewayProcess, prepareGateway, startFlags, startGateway } from './lib/gateway.js';
import { atFixedRate, closedLoop, failureText, LoadClient, type RunResult, type Target } from './lib/load.js';
import {
  assertRunning,
  firstJsonLine,
  killAllChildren,
  type Pinning,
  pinSelf,
  type Started,
  startPinned,
  stopProcess,
} from './lib/processes.js';
import { cpuBusySeconds, cpuSeconds, memory, procAvailable } from './lib/procfs.js';
import { type ProfileSummary, summarizeProfile, type Window } from './lib/profile.js';
import { checked, info, markdownTable, mib, micros, ms, NONE, perSecond, type Row, signedMs } from './lib/report.js';
import { median, type Summary, summarize } from './lib/stats.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// The issue's targets. They live here, never in tests: a busy CI machine must not fail a build on a timing.
const TARGET = {
  cpuPerRequestUs: 150,
  addedP50Ms: 0.3,
  addedP99Ms: 1.5,
  addedTtfbMs: 0.5,
  peakRssMiB: 120,
  soakGrowthMiB: 10,
};

interface Options {
  rate: number;
  seconds: number;
  connections: number;
  throughputSeconds: number;
  streamRate: number;
  streamSeconds: number;
  warmupSeconds: number;
  soakSeconds: number;
  soakRate: number;
  chunks: number;
  chunkDelayMs: number;
  retries: number;
  quietWaitSeconds: number;
  pin: boolean;
  cpuProf: boolean;
  strict: boolean;
  out: string;
}

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      rate: { type: 'string', default: '500' },
      seconds: { type: 'string', default: '20' },
      connections: { type: 'string', default: '50' },
      'throughput-seconds': { type: 'string', default: '10' },
      'stream-rate': { type: 'string', default: '100' },
      'stream-seconds': { type: 'string', default: '15' },
      'warmup-seconds': { type: 'string', default: '8' },
      soak: { type: 'string', default: '0' },
      'soak-rate': { type: 'string', default: '100' },
      chunks: { type: 'string', default: '16' },
      'chunk-delay-ms': { type: 'string', default: '10' },
      retries: { type: 'string', default: '2' },
      'quiet-wait': { type: 'string', default: '30' },
      quick: { type: 'boolean', default: false },
      'no-pin': { type: 'boolean', default: false },
      'cpu-prof': { type: 'boolean', default: false },
      strict: { type: 'boolean', default: false },
      out: { type: 'string', default: 'bench/results/latest.md' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log('usage: npm run bench -- [--quick] [--soak SECONDS] [--cpu-prof] [--no-pin] [--strict] ...');
    console.log('all options and their defaults: bench/README.md');
    process.exit(0);
  }
  const number = (name: string, raw: string, min: number, max: number) => {
    const value = Number(raw);
    if (!Number.isFinite(value) || value < min || value > max) {
      throw new Error(`--${name} must be a number between ${min} and ${max}, got "${raw}"`);
    }
    return value;
  };
  // --quick: a smoke run (about 30 s) to check the bench itself works; its figures are too short to quote.
  const quick = values.quick;
  return {
    rate: number('rate', values.rate, 1, 20_000),
    seconds: quick ? 3 : number('seconds', values.seconds, 1, 600),
    connections: number('connections', values.connections, 1, 1000),
    throughputSeconds: quick ? 2 : number('throughput-seconds', values['throughput-seconds'], 1, 600),
    streamRate: number('stream-rate', values['stream-rate'], 1, 5000),
    streamSeconds: quick ? 2 : number('stream-seconds', values['stream-seconds'], 1, 600),
    warmupSeconds: quick ? 2 : number('warmup-seconds', values['warmup-seconds'], 0, 120),
    soakSeconds: number('soak', values.soak, 0, 24 * 3600),
    soakRate: number('soak-rate', values['soak-rate'], 1, 5000),
    chunks: number('chunks', values.chunks, 1, 10_000),
    chunkDelayMs: number('chunk-delay-ms', values['chunk-delay-ms'], 0, 10_000),
    retries: number('retries', values.retries, 0, 10),
    quietWaitSeconds: number('quiet-wait', values['quiet-wait'], 0, 600),
    pin: !values['no-pin'],
    cpuProf: values['cpu-prof'],
    strict: values.strict,
    out: resolve(ROOT, values.out),
  };
}

const log = (message: string) => console.log(`[bench] ${message}`);

/** CPU seconds of each party over one phase: the gateway, the mock, and this process (the load generator). */
interface PhaseCost {
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

interface Parties {
  gateway: number;
  floor: number;
  mock: number;
  processes: Started[];
  pinning: Pinning | null;
}

interface Phase {
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
const DISTURBED = 0.05;
const phaseInterference = (phase: Phase) => interference(phase.cost, phase.result.elapsedSeconds, phase.viaGateway);

async function runPhase(
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

/** Gateway CPU per answered request, in microseconds. */
const cpuPerRequestUs = (phase: Phase) => (phase.cost.gatewaySeconds / Math.max(1, phase.result.ok)) * 1e6;
/** The same for the bare Node proxy in its own phases. */
const floorCpuPerRequestUs = (phase: Phase) => (phase.cost.floorSeconds / Math.max(1, phase.result.ok)) * 1e6;
/**
 * The mock's CPU per request in a direct phase: what a do-nothing Node HTTP server costs per request on this
 * machine at this rate. At a low rate every request pays its own wake-ups, so both figures rise together; this
 * floor tells how much of the gateway's figure is the platform.
 */
const mockCpuPerRequest = (phase: Phase) =>
  `mock: ${micros((phase.cost.mockSeconds / Math.max(1, phase.result.ok)) * 1e6)}`;
/** The CPU row's cells for one kind of load: the mock's own cost, the gateway's and the bare proxy's. */
const cpuCells = (direct: Phase, gateway: Phase, floor: Phase) => ({
  direct: mockCpuPerRequest(direct),
  gateway: micros(cpuPerRequestUs(gateway)),
  added: micros(cpuPerRequestUs(gateway)),
  floor: micros(floorCpuPerRequestUs(floor)),
});
/** A latency row's cells: the percentile direct and through the gateway, and what the gateway and the bare proxy add. */
const percentileCells = (p: 'p50' | 'p99', direct: Summary, gateway: Summary, floor: Summary) => ({
  direct: ms(direct[p]),
  gateway: ms(gateway[p]),
  added: signedMs(gateway[p] - direct[p]),
  floor: signedMs(floor[p] - direct[p]),
});
const throughput = (phase: Phase) => phase.result.ok / phase.result.elapsedSeconds;
/** Share of the load core used by the load generator and the mock together (1 = the core was saturated). */
const loadCoreBusy = (phase: Phase) => (phase.cost.loadSeconds + phase.cost.mockSeconds) / phase.result.elapsedSeconds;

function requestBodies() {
  const base = {
    model: BENCH_MODEL,
    messages: [
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: 'Write sixteen words about load testing an API gateway.' },
    ],
    max_tokens: 64,
  };
  return {
    chat: Buffer.from(JSON.stringify(base)),
    stream: Buffer.from(JSON.stringify({ ...base, stream: true, stream_options: { include_usage: true } })),
  };
}

/** One request of each kind through both paths, checked by content: a fast wrong answer must not be measured. */
async function verify(direct: LoadClient, gateway: LoadClient, streaming: boolean): Promise<void> {
  const hasOneChoice = (body: string) => {
    try {
      return (JSON.parse(body) as { choices?: unknown[] }).choices?.length === 1;
    } catch {
      return false;
    }
  };
  for (const client of [direct, gateway]) {
    const sample = await client.send(true);
    const body = sample.body ?? '';
    const good =
      sample.status === 200 &&
      (streaming ? body.includes('"content":"word') && body.trimEnd().endsWith('data: [DONE]') : hasOneChoice(body));
    if (!good) {
      const kind = streaming ? 'streaming' : 'non-streaming';
      throw new Error(`${kind} check via ${client.target.label} failed: ${sample.status} ${sample.error ?? body}`);
    }
  }
}

interface SoakResult {
  phase: Phase;
  samples: Array<{ atSeconds: number; rss: number }>;
  baselineRss: number;
  finalRss: number;
  peakRss: number;
}

/** Streaming at a fixed rate for a long time while the gateway's RSS is sampled every 5 s. */
async function soak(options: Options, client: LoadClient, pids: Parties): Promise<SoakResult> {
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

function phaseDetails(phases: Phase[]): string {
  const seconds = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)} s` : 'n/a');
  const lines = [
    '| phase | try | ok | failed | elapsed | rate | CPU: gateway | bare proxy | mock | load generator | ' +
      'load core busy | others: on load CPU | on gateway CPU | machine | gateway RSS after |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const phase of phases) {
    const { result, cost } = phase;
    const cells = [
      phase.name,
      String(phase.attempt),
      String(result.ok),
      `${result.failed}${result.failed ? ` (${failureText(result)})` : ''}`,
      `${result.elapsedSeconds.toFixed(1)} s`,
      perSecond(throughput(phase)),
      seconds(cost.gatewaySeconds),
      seconds(cost.floorSeconds),
      seconds(cost.mockSeconds),
      seconds(cost.loadSeconds),
      `${Math.round(loadCoreBusy(phase) * 100)} %`,
      seconds(cost.othersOnLoadCpuSeconds),
      seconds(cost.othersOnGatewayCpuSeconds),
      seconds(cost.othersSeconds),
      mib(phase.rssAfter),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

function latencyLine(label: string, summary: Summary): string {
  return `| ${label} | ${summary.count} | ${ms(summary.p50)} | ${ms(summary.p90)} | ${ms(summary.p99)} | ${ms(summary.max)} | ${ms(summary.mean)} |`;
}

function profileSection(summary: ProfileSummary, copiedTo: string): string {
  const busy = summary.sampledMs - summary.idleMs;
  return [
    '## CPU profile of the gateway (self time)',
    '',
    `Profile: \`${copiedTo}\` (open in Chrome DevTools → Performance, or VS Code). ` +
      `${summary.windowed ? 'Samples taken during the measured phases only' : 'All samples (the measurement window did not match the profile clock)'}: ` +
      `${(busy / 1000).toFixed(2)} s busy of ${(summary.sampledMs / 1000).toFixed(2)} s sampled. ` +
      'The profiler itself slows the gateway down: do not quote the table of a --cpu-prof run.',
    '',
    '| self time | share of busy | function |',
    '| --- | --- | --- |',
    ...summary.functions.map((f) => `| ${f.selfMs.toFixed(0)} ms | ${(f.share * 100).toFixed(1)} % | \`${f.name}\` |`),
    '',
    '| self time | share of busy | package or folder |',
    '| --- | --- | --- |',
    ...summary.packages.map((p) => `| ${p.selfMs.toFixed(0)} ms | ${(p.share * 100).toFixed(1)} % | ${p.name} |`),
  ].join('\n');
}

function commandLine(): string {
  const args = process.argv.slice(2);
  return args.length ? `npm run bench -- ${args.join(' ')}` : 'npm run bench';
}

/** Monotonic microseconds, the clock V8's profiler stamps its samples with. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

async function main(): Promise<number> {
  const options = readOptions();
  if (!procAvailable()) throw new Error('this benchmark reads /proc for CPU time and memory: run it on Linux');
  const { pinning, note: pinNote } = pinSelf(options.pin);
  log(pinNote);
  const workDir = mkdtempSync(join(tmpdir(), 'gateway-bench-'));
  let mock: Started | null = null;
  let floor: Started | null = null;
  let gateway: GatewayProcess | null = null;
  const clients: LoadClient[] = [];
  const cleanup = async () => {
    for (const client of clients) client.close();
    if (gateway) await stopProcess(gateway);
    if (floor) await stopProcess(floor);
    if (mock) await stopProcess(mock);
    gateway = null;
    mock = null;
    floor = null;
  };
  const interrupted = () => {
    killAllChildren();
    rmSync(workDir, { recursive: true, force: true });
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);

  try {
    mock = startPinned(
      'mock upstream',
      pinning?.loadCpu ?? null,
      process.execPath,
      [
        '--import',
        'tsx',
        resolve(ROOT, 'bench/mock-upstream.ts'),
        '--chunks',
        String(options.chunks),
        '--chunk-delay-ms',
        String(options.chunkDelayMs),
      ],
      { PATH: process.env.PATH, HOME: process.env.HOME },
      ROOT,
    );
    const { port: mockPort } = await firstJsonLine<{ port: number }>(mock, 30_000);
    log(`mock upstream on 127.0.0.1:${mockPort} (pid ${mock.pid})`);
    const mockUrl = `http://127.0.0.1:${mockPort}`;
    floor = startPinned(
      'bare Node proxy',
      pinning?.gatewayCpu ?? null,
      process.execPath,
      [...startFlags(ROOT), resolve(ROOT, 'bench/floor-proxy.mjs'), '--upstream', mockUrl],
      { PATH: process.env.PATH, HOME: process.env.HOME },
      ROOT,
    );
    const { port: floorPort } = await firstJsonLine<{ port: number }>(floor, 30_000);
    log(`bare Node proxy on 127.0.0.1:${floorPort} (pid ${floor.pid})`);
    gateway = await startGateway({
      root: ROOT,
      cpu: pinning?.gatewayCpu ?? null,
      dataDir: workDir,
      nodeFlags: options.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${join(workDir, 'profile')}`] : [],
    });
    log(`gateway on ${gateway.baseUrl} (pid ${gateway.pid}), SQLite in ${workDir}`);
    const key = await prepareGateway(gateway.baseUrl, mockUrl);
    const pids: Parties = {
      gateway: gateway.pid,
      floor: floor.pid,
      mock: mock.pid,
      processes: [gateway, floor, mock],
      pinning,
    };
    // Before any relay traffic: what the process costs just for being up (modules, caches, SQLite).
    const idleRss = memory(pids.gateway).rss;
    const floorIdleRss = memory(pids.floor).rss;

    const bodies = requestBodies();
    const path = '/v1/chat/completions';
    const direct: Target = {
      label: 'direct',
      port: mockPort,
      path,
      headers: { authorization: 'Bearer sk-bench-upstream' },
    };
    const viaGateway: Target = {
      label: 'gateway',
      port: gateway.port,
      path,
      headers: { authorization: `Bearer ${key}` },
    };
    const client = (target: Target, body: Buffer, sockets: number) => {
      const made = new LoadClient(target, body, sockets);
      clients.push(made);
      return made;
    };
    // Fixed-rate clients may open more sockets than they usually need, so a slow answer never delays the next send.
    const rateDirect = client(direct, bodies.chat, 256);
    const rateGateway = client(viaGateway, bodies.chat, 256);
    const poolDirect = client(direct, bodies.chat, options.connections);
    const poolGateway = client(viaGateway, bodies.chat, options.connections);
    const streamDirect = client(direct, bodies.stream, 256);
    const streamGateway = client(viaGateway, bodies.stream, 256);
    const floorTarget: Target = { ...direct, label: 'bare Node proxy', port: floorPort };
    const rateFloor = client(floorTarget, bodies.chat, 256);
    const poolFloor = client(floorTarget, bodies.chat, options.connections);
    const streamFloor = client(floorTarget, bodies.stream, 256);
    await verify(rateDirect, rateGateway, false);
    await verify(rateDirect, rateFloor, false);
    await verify(streamDirect, streamFloor, true);
    await verify(streamDirect, streamGateway, true);

    // Warm-up: V8 compiles the hot functions, pools fill, the first log batches are written. Not reported.
    const warm = options.warmupSeconds;
    await runPhase(`warm-up, ${warm} s`, pids, true, async () => {
      await closedLoop(poolDirect, options.connections, warm / 4);
      const result = await closedLoop(poolGateway, options.connections, warm / 2);
      await closedLoop(poolFloor, options.connections, warm / 4);
      await atFixedRate(streamGateway, options.streamRate, warm / 4);
      return result;
    });

    const measuredFrom = monotonicUs();
    const phases: Phase[] = [];
    // A phase disturbed by other processes is repeated (at most --retries times) after waiting for quiet; the
    // least disturbed try is kept, and the report says which try it was.
    const measure = async (name: string, run: () => Promise<RunResult>) => {
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
      phases.push(kept!);
      return kept!;
    };
    const rateDirectPhase = await measure(`direct, ${options.rate} req/s`, () =>
      atFixedRate(rateDirect, options.rate, options.seconds),
    );
    const rateGatewayPhase = await measure(`gateway, ${options.rate} req/s`, () =>
      atFixedRate(rateGateway, options.rate, options.seconds),
    );
    const rateFloorPhase = await measure(`bare Node proxy, ${options.rate} req/s`, () =>
      atFixedRate(rateFloor, options.rate, options.seconds),
    );
    const poolDirectPhase = await measure(`direct, ${options.connections} connections`, () =>
      closedLoop(poolDirect, options.connections, options.throughputSeconds),
    );
    const poolGatewayPhase = await measure(`gateway, ${options.connections} connections`, () =>
      closedLoop(poolGateway, options.connections, options.throughputSeconds),
    );
    const poolFloorPhase = await measure(`bare Node proxy, ${options.connections} connections`, () =>
      closedLoop(poolFloor, options.connections, options.throughputSeconds),
    );
    const streamDirectPhase = await measure(`direct, streaming ${options.streamRate}/s`, () =>
      atFixedRate(streamDirect, options.streamRate, options.streamSeconds),
    );
    const streamGatewayPhase = await measure(`gateway, streaming ${options.streamRate}/s`, () =>
      atFixedRate(streamGateway, options.streamRate, options.streamSeconds),
    );
    const streamFloorPhase = await measure(`bare Node proxy, streaming ${options.streamRate}/s`, () =>
      atFixedRate(streamFloor, options.streamRate, options.streamSeconds),
    );
    const peakAfterRuns = memory(pids.gateway).peakRss;
    const floorPeak = memory(pids.floor).peakRss;
    const soakResult = options.soakSeconds > 0 ? await soak(options, streamGateway, pids) : null;
    if (soakResult) phases.push(soakResult.phase);
    const measuredTo = monotonicUs();

    // Stop first: the gateway writes its CPU profile on the way out.
    const gatewayStderr = gateway.stderr();
    await cleanup();

    const latDirect = summarize(rateDirectPhase.result.latencies);
    const latGateway = summarize(rateGatewayPhase.result.latencies);
    const latFloor = summarize(rateFloorPhase.result.latencies);
    const ttfbDirect = summarize(streamDirectPhase.result.firstBytes);
    const ttfbGateway = summarize(streamGatewayPhase.result.firstBytes);
    const ttfbFloor = summarize(streamFloorPhase.result.firstBytes);
    const streamDurDirect = summarize(streamDirectPhase.result.latencies);
    const streamDurGateway = summarize(streamGatewayPhase.result.latencies);
    const cpuAtRate = cpuPerRequestUs(rateGatewayPhase);
    const tputDirect = throughput(poolDirectPhase);
    const tputGateway = throughput(poolGatewayPhase);

    const rows: Row[] = [
      checked(
        `gateway CPU per request (${options.rate} req/s)`,
        cpuCells(rateDirectPhase, rateGatewayPhase, rateFloorPhase),
        cpuAtRate,
        TARGET.cpuPerRequestUs,
        `≤ ${TARGET.cpuPerRequestUs} µs`,
      ),
      info(
        `gateway CPU per request (${options.connections} conns)`,
        cpuCells(poolDirectPhase, poolGatewayPhase, poolFloorPhase),
      ),
      info(
        `gateway CPU per stream (${options.chunks} chunks)`,
        cpuCells(streamDirectPhase, streamGatewayPhase, streamFloorPhase),
      ),
      checked(
        `latency p50 at ${options.rate} req/s`,
        percentileCells('p50', latDirect, latGateway, latFloor),
        latGateway.p50 - latDirect.p50,
        TARGET.addedP50Ms,
        `≤ +${TARGET.addedP50Ms} ms`,
      ),
      checked(
        `latency p99 at ${options.rate} req/s`,
        percentileCells('p99', latDirect, latGateway, latFloor),
        latGateway.p99 - latDirect.p99,
        TARGET.addedP99Ms,
        `≤ +${TARGET.addedP99Ms} ms`,
      ),
      info(`throughput, ${options.connections} connections`, {
        direct: perSecond(tputDirect),
        gateway: perSecond(tputGateway),
        added: `${Math.round((tputGateway / tputDirect) * 100)} % of direct`,
        floor: perSecond(throughput(poolFloorPhase)),
      }),
      checked(
        'streaming first byte p50',
        percentileCells('p50', ttfbDirect, ttfbGateway, ttfbFloor),
        ttfbGateway.p50 - ttfbDirect.p50,
        TARGET.addedTtfbMs,
        `≤ +${TARGET.addedTtfbMs} ms`,
      ),
      info('streaming first byte p99', percentileCells('p99', ttfbDirect, ttfbGateway, ttfbFloor)),
      info('gateway RSS at start (idle, before load)', {
        gateway: mib(idleRss),
        added: mib(idleRss),
        floor: mib(floorIdleRss),
      }),
      checked(
        'gateway peak RSS (VmHWM)',
        { gateway: mib(peakAfterRuns), added: mib(peakAfterRuns), floor: mib(floorPeak) },
        peakAfterRuns / 1024 / 1024,
        TARGET.peakRssMiB,
        `≤ ${TARGET.peakRssMiB} MiB`,
      ),
    ];
    if (soakResult) {
      const growth = soakResult.finalRss - soakResult.baselineRss;
      rows.push(
        checked(
          `RSS growth over a ${options.soakSeconds} s stream soak`,
          { gateway: `${mib(soakResult.baselineRss)} → ${mib(soakResult.finalRss)}`, added: mib(growth) },
          growth / 1024 / 1024,
          TARGET.soakGrowthMiB,
          `≤ ${TARGET.soakGrowthMiB} MiB`,
        ),
        checked(
          'gateway peak RSS after the soak',
          { gateway: mib(soakResult.peakRss), added: mib(soakResult.peakRss) },
          soakResult.peakRss / 1024 / 1024,
          TARGET.peakRssMiB,
          `≤ ${TARGET.peakRssMiB} MiB`,
        ),
      );
    } else {
      rows.push({
        metric: 'RSS growth over a stream soak',
        direct: NONE,
        gateway: 'not run',
        added: NONE,
        floor: NONE,
        target: `≤ ${TARGET.soakGrowthMiB} MiB (--soak 600)`,
        verdict: NONE,
      });
    }

    const failedRequests = phases.reduce((sum, phase) => sum + phase.result.failed, 0);
    const busiest = Math.max(...phases.map(loadCoreBusy));
    const warnings: string[] = [];
    if (failedRequests > 0)
      warnings.push(`${failedRequests} requests failed: see the phase table; figures are suspect.`);
    if (options.cpuProf) warnings.push('Profiled run (--cpu-prof): the profiler slows the gateway; do not quote.');
    if (!pinning) warnings.push(`Processes were not pinned (${pinNote}): CPU and latency figures are noisier.`);
    if (loadCoreBusy(poolDirectPhase) > 0.9) {
      warnings.push(
        'Direct throughput is limited by the load core (load generator + mock share one CPU), not by the mock alone.',
      );
    }
    const disturbed = phases.filter((phase) => phaseInterference(phase) > DISTURBED);
    if (disturbed.length > 0) {
      const worst = Math.max(...disturbed.map(phaseInterference));
      warnings.push(
        `Other processes took up to ${Math.round(worst * 100)} % of a CPU during ${disturbed.length} measured ` +
          `phase(s), even after ${options.retries} repeat(s): the machine was not quiet, figures are pessimistic. ` +
          'Rerun when nothing else runs.',
      );
    }
    const lagP99 = summarize(rateGatewayPhase.result.sendLagMs).p99;
    if (lagP99 > 2) warnings.push(`Sends left up to ${lagP99.toFixed(1)} ms late (p99): the load core was busy.`);

    let profileText = '';
    if (options.cpuProf) {
      const profileDir = join(workDir, 'profile');
      const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
      if (file) {
        const kept = join(dirname(options.out), 'gateway.cpuprofile');
        mkdirSync(dirname(kept), { recursive: true });
        copyFileSync(join(profileDir, file), kept);
        const window: Window = { fromUs: measuredFrom, toUs: measuredTo };
        profileText = profileSection(summarizeProfile(kept, window), relative(ROOT, kept));
      } else {
        warnings.push('--cpu-prof: the gateway wrote no profile (did it exit cleanly on SIGTERM?).');
      }
    }

    const table = markdownTable(rows);
    const cpu = cpus()[0]?.model ?? 'unknown CPU';
    const environment = `Node ${process.version}, ${cpus().length} × ${cpu}, Linux ${release()}; ${pinNote}.`;
    const markdown = [
      '# Gateway benchmark',
      '',
      `Command: \`${commandLine()}\` (after \`npx tsc -b packages/shared packages/server\`), ${new Date().toISOString()}.`,
      '',
      environment,
      '',
      table,
      '',
      ...(warnings.length ? ['**Warnings**', '', ...warnings.map((w) => `- ${w}`), ''] : []),
      '## Details',
      '',
      `Requests: non-streaming chat (\`${BENCH_MODEL}\`, ${bodies.chat.length} bytes, answered with usage), ` +
        `streaming chat with \`include_usage\` (${options.chunks} content chunks, ${options.chunkDelayMs} ms apart). ` +
        'The mock answers at once; latencies are measured by the client from send to last byte (first byte for TTFB).',
      '',
      '| latency | samples | p50 | p90 | p99 | max | mean |',
      '| --- | --- | --- | --- | --- | --- | --- |',
      latencyLine(`direct, ${options.rate} req/s`, latDirect),
      latencyLine(`gateway, ${options.rate} req/s`, latGateway),
      latencyLine(`bare Node proxy, ${options.rate} req/s`, latFloor),
      latencyLine(`direct, ${options.connections} conns`, summarize(poolDirectPhase.result.latencies)),
      latencyLine(`gateway, ${options.connections} conns`, summarize(poolGatewayPhase.result.latencies)),
      latencyLine(`bare Node proxy, ${options.connections} conns`, summarize(poolFloorPhase.result.latencies)),
      latencyLine('direct, stream first byte', ttfbDirect),
      latencyLine('gateway, stream first byte', ttfbGateway),
      latencyLine('bare Node proxy, stream first byte', ttfbFloor),
      latencyLine('direct, whole stream', streamDurDirect),
      latencyLine('gateway, whole stream', streamDurGateway),
      '',
      phaseDetails(phases),
      '',
      `Load core busiest at ${Math.round(busiest * 100)} %; fixed-rate send lag p99 ${lagP99.toFixed(2)} ms.`,
      ...(soakResult
        ? [
            '',
            '### Soak: gateway RSS every 5 s',
            '',
            soakResult.samples.map((s) => `${Math.round(s.atSeconds)} s: ${mib(s.rss)}`).join(', '),
          ]
        : []),
      ...(gatewayStderr.trim() ? ['', '### Gateway stderr (last lines)', '', '```', gatewayStderr.trim(), '```'] : []),
      ...(profileText ? ['', profileText] : []),
      '',
    ].join('\n');

    mkdirSync(dirname(options.out), { recursive: true });
    writeFileSync(options.out, markdown);
    console.log('');
    console.log(environment);
    console.log('');
    console.log(table);
    for (const warning of warnings) console.log(`warning: ${warning}`);
    if (profileText) console.log(`\n${profileText}`);
    console.log(`\n[bench] written to ${relative(ROOT, options.out)}`);

    if (failedRequests > 0) return 1;
    if (options.strict && rows.some((row) => row.verdict === 'FAIL')) return 1;
    return 0;
  } finally {
    await cleanup();
    rmSync(workDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`[bench] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    killAllChildren();
    process.exit(1);
  },
);
