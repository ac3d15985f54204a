/**
 * `npm run bench`: the gateway against a local mock upstream, side by side with the mock called directly.
 * See bench/README.md for what each figure means. Builds nothing: run `npm run build` (or
 * `npx tsc -b packages/shared packages/server`) first.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { type Clients, makeClients, type ThreeClients, verifyClients } from './lib/clients.js';
import { type GatewayProcess, prepareGateway, startFlags, startGateway } from './lib/gateway.js';
import { atFixedRate, closedLoop, type LoadClient, type RunResult } from './lib/load.js';
import { log } from './lib/log.js';
import { type Options, ROOT, readOptions } from './lib/options.js';
import { measurePhase, type Parties, type Phase, runPhase, type ThreeWays } from './lib/phases.js';
import {
  firstJsonLine,
  killAllChildren,
  type Pinning,
  pinSelf,
  type Started,
  startPinned,
  stopProcess,
} from './lib/processes.js';
import { memory, procAvailable } from './lib/procfs.js';
import { summarizeProfile, type Window } from './lib/profile.js';
import { markdownTable } from './lib/report.js';
import {
  environmentLine,
  failedRequests,
  latencies,
  type Measured,
  markdownReport,
  profileSection,
  resultRows,
  runWarnings,
} from './lib/report-sections.js';
import { soak } from './lib/soak.js';

/** What has been started so far, so that a failure halfway stops exactly that. */
interface Running {
  mock: Started | null;
  floor: Started | null;
  gateway: GatewayProcess | null;
  clients: LoadClient[];
}

async function stopAll(running: Running): Promise<void> {
  for (const client of running.clients) client.close();
  if (running.gateway) await stopProcess(running.gateway);
  if (running.floor) await stopProcess(running.floor);
  if (running.mock) await stopProcess(running.mock);
  running.gateway = null;
  running.mock = null;
  running.floor = null;
}

function exitOnSignal(workDir: string): void {
  const interrupted = () => {
    killAllChildren();
    rmSync(workDir, { recursive: true, force: true });
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
}

/** The mock upstream, the bare Node proxy in front of it and the gateway, prepared with one channel and one key. */
async function startParties(options: Options, pinning: Pinning | null, workDir: string, running: Running) {
  const mock = startPinned(
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
  running.mock = mock;
  const { port: mockPort } = await firstJsonLine<{ port: number }>(mock, 30_000);
  log(`mock upstream on 127.0.0.1:${mockPort} (pid ${mock.pid})`);
  const mockUrl = `http://127.0.0.1:${mockPort}`;
  const floor = startPinned(
    'bare Node proxy',
    pinning?.gatewayCpu ?? null,
    process.execPath,
    [...startFlags(ROOT), resolve(ROOT, 'bench/floor-proxy.mjs'), '--upstream', mockUrl],
    { PATH: process.env.PATH, HOME: process.env.HOME },
    ROOT,
  );
  running.floor = floor;
  const { port: floorPort } = await firstJsonLine<{ port: number }>(floor, 30_000);
  log(`bare Node proxy on 127.0.0.1:${floorPort} (pid ${floor.pid})`);
  const gateway = await startGateway({
    root: ROOT,
    cpu: pinning?.gatewayCpu ?? null,
    dataDir: workDir,
    nodeFlags: options.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${join(workDir, 'profile')}`] : [],
  });
  running.gateway = gateway;
  log(`gateway on ${gateway.baseUrl} (pid ${gateway.pid}), SQLite in ${workDir}`);
  const key = await prepareGateway(gateway.baseUrl, mockUrl);
  const pids: Parties = {
    gateway: gateway.pid,
    floor: floor.pid,
    mock: mock.pid,
    processes: [gateway, floor, mock],
    pinning,
  };
  return { pids, gateway, key, ports: { mock: mockPort, gateway: gateway.port, floor: floorPort } };
}

/** V8 compiles the hot functions, pools fill, the first log batches are written. Not reported. */
async function warmUp(options: Options, pids: Parties, clients: Clients): Promise<void> {
  const warm = options.warmupSeconds;
  await runPhase(`warm-up, ${warm} s`, pids, true, async () => {
    await closedLoop(clients.pool.direct, options.connections, warm / 4);
    const result = await closedLoop(clients.pool.gateway, options.connections, warm / 2);
    await closedLoop(clients.pool.floor, options.connections, warm / 4);
    await atFixedRate(clients.stream.gateway, options.streamRate, warm / 4);
    return result;
  });
}

/** Fixed rate, then a closed loop of connections, then streaming: each direct, through the gateway, through the proxy. */
async function measureLoads(options: Options, pids: Parties, clients: Clients) {
  const phases: Phase[] = [];
  // A phase is named after its client ("direct", "gateway", "bare Node proxy") and the load.
  const threeWays = async (
    ways: ThreeClients,
    load: string,
    run: (client: LoadClient) => Promise<RunResult>,
  ): Promise<ThreeWays> => {
    const measure = async (client: LoadClient) => {
      const phase = await measurePhase(`${client.target.label}, ${load}`, pids, options, () => run(client));
      phases.push(phase);
      return phase;
    };
    const direct = await measure(ways.direct);
    const gateway = await measure(ways.gateway);
    const floor = await measure(ways.floor);
    return { direct, gateway, floor };
  };
  const rate = await threeWays(clients.rate, `${options.rate} req/s`, (client) =>
    atFixedRate(client, options.rate, options.seconds),
  );
  const pool = await threeWays(clients.pool, `${options.connections} connections`, (client) =>
    closedLoop(client, options.connections, options.throughputSeconds),
  );
  const stream = await threeWays(clients.stream, `streaming ${options.streamRate}/s`, (client) =>
    atFixedRate(client, options.streamRate, options.streamSeconds),
  );
  const burst = await threeWays(clients.burst, `stream bursts, ${options.connections} connections`, (client) =>
    closedLoop(client, options.connections, options.throughputSeconds),
  );
  return { rate, pool, stream, burst, phases };
}

/** Monotonic microseconds, the clock V8's profiler stamps its samples with. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * Keeps the gateway's CPU profile next to the report and summarizes the measured window of it; null when the
 * gateway wrote none.
 */
function keptProfile(options: Options, workDir: string, window: Window): string | null {
  const profileDir = join(workDir, 'profile');
  const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
  if (!file) return null;
  const kept = join(dirname(options.out), 'gateway.cpuprofile');
  mkdirSync(dirname(kept), { recursive: true });
  copyFileSync(join(profileDir, file), kept);
  return profileSection(summarizeProfile(kept, window), relative(ROOT, kept));
}

/** Writes the Markdown report, prints the table and the warnings; returns the exit code. */
function report(
  options: Options,
  measured: Measured,
  run: { pinned: boolean; pinNote: string; workDir: string; window: Window; chatBytes: number; gatewayStderr: string },
): number {
  const lat = latencies(measured);
  const rows = resultRows(options, measured, lat);
  const warnings = runWarnings(options, measured, lat, { pinned: run.pinned, note: run.pinNote });
  let profileText = '';
  if (options.cpuProf) {
    const section = keptProfile(options, run.workDir, run.window);
    if (section) profileText = section;
    else warnings.push('--cpu-prof: the gateway wrote no profile (did it exit cleanly on SIGTERM?).');
  }

  const table = markdownTable(rows);
  const environment = environmentLine(run.pinNote);
  const markdown = markdownReport(options, measured, lat, {
    environment,
    table,
    warnings,
    chatBytes: run.chatBytes,
    gatewayStderr: run.gatewayStderr,
    profileText,
  });
  mkdirSync(dirname(options.out), { recursive: true });
  writeFileSync(options.out, markdown);
  console.log('');
  console.log(environment);
  console.log('');
  console.log(table);
  for (const warning of warnings) console.log(`warning: ${warning}`);
  if (profileText) console.log(`\n${profileText}`);
  console.log(`\n[bench] written to ${relative(ROOT, options.out)}`);

  if (failedRequests(measured.phases) > 0) return 1;
  if (options.strict && rows.some((row) => row.verdict === 'FAIL')) return 1;
  return 0;
}

async function main(): Promise<number> {
  const options = readOptions();
  if (!procAvailable()) throw new Error('this benchmark reads /proc for CPU time and memory: run it on Linux');
  const { pinning, note: pinNote } = pinSelf(options.pin);
  log(pinNote);
  const workDir = mkdtempSync(join(tmpdir(), 'gateway-bench-'));
  const running: Running = { mock: null, floor: null, gateway: null, clients: [] };
  exitOnSignal(workDir);

  try {
    const { pids, gateway, key, ports } = await startParties(options, pinning, workDir, running);
    // Before any relay traffic: what the process costs just for being up (modules, caches, SQLite).
    const idleRss = { gateway: memory(pids.gateway).rss, floor: memory(pids.floor).rss };
    const clients = makeClients(ports, key, options.connections);
    running.clients = clients.all;
    await verifyClients(clients);
    await warmUp(options, pids, clients);

    const measuredFrom = monotonicUs();
    const loads = await measureLoads(options, pids, clients);
    const peakRss = { gateway: memory(pids.gateway).peakRss, floor: memory(pids.floor).peakRss };
    const soakResult = options.soakSeconds > 0 ? await soak(options, clients.stream.gateway, pids) : null;
    if (soakResult) loads.phases.push(soakResult.phase);
    const measuredTo = monotonicUs();

    // Stop first: the gateway writes its CPU profile on the way out.
    const gatewayStderr = gateway.stderr();
    await stopAll(running);

    return report(
      options,
      { ...loads, idleRss, peakRss, soak: soakResult },
      {
        pinned: pinning !== null,
        pinNote,
        workDir,
        window: { fromUs: measuredFrom, toUs: measuredTo },
        chatBytes: clients.bodies.chat.length,
        gatewayStderr,
      },
    );
  } finally {
    await stopAll(running);
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
