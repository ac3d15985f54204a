/**
 * What the report says: the result table's rows against the targets, the warnings, and the Markdown document with
 * the details behind the table (latencies, every phase, the soak, the CPU profile).
 */
import { cpus, release } from 'node:os';
import { BURST_CHUNKS } from './clients.js';
import { BENCH_MODEL } from './gateway.js';
import { failureText, type RunResult } from './load.js';
import type { Options } from './options.js';
import {
  cpuPerRequestUs,
  DISTURBED,
  floorCpuPerRequestUs,
  loadCoreBusy,
  type Phase,
  phaseInterference,
  type ThreeWays,
  throughput,
} from './phases.js';
import type { ProfileSummary } from './profile.js';
import { checked, info, mib, micros, ms, NONE, perSecond, type Row, signedMs } from './report.js';
import type { SoakResult } from './soak.js';
import { type Summary, summarize } from './stats.js';

// The issue's targets. They live here, never in tests: a busy CI machine must not fail a build on a timing.
const TARGET = {
  cpuPerRequestUs: 150,
  addedP50Ms: 0.3,
  addedP99Ms: 1.5,
  addedTtfbMs: 0.5,
  peakRssMiB: 120,
  soakGrowthMiB: 10,
};

/** Everything measured in one run, as the report reads it. */
export interface Measured {
  rate: ThreeWays;
  pool: ThreeWays;
  stream: ThreeWays;
  /** Streams of BURST_CHUNKS events each, back to back on every connection. */
  burst: ThreeWays;
  /** Every measured phase in the order it ran, the soak last. */
  phases: Phase[];
  /** Resident memory of the gateway and of the bare proxy before any relay traffic, in bytes. */
  idleRss: { gateway: number; floor: number };
  /** Their peak resident memory (VmHWM) after the measured phases, before the soak. */
  peakRss: { gateway: number; floor: number };
  soak: SoakResult | null;
}

interface ThreeSummaries {
  direct: Summary;
  gateway: Summary;
  floor: Summary;
}

const summarizeThreeWays = (ways: ThreeWays, samples: (result: RunResult) => number[]): ThreeSummaries => ({
  direct: summarize(samples(ways.direct.result)),
  gateway: summarize(samples(ways.gateway.result)),
  floor: summarize(samples(ways.floor.result)),
});

/** The latency figures that the table, the warnings and the details share. */
export function latencies(measured: Measured) {
  return {
    rate: summarizeThreeWays(measured.rate, (result) => result.latencies),
    ttfb: summarizeThreeWays(measured.stream, (result) => result.firstBytes),
    wholeStream: summarizeThreeWays(measured.stream, (result) => result.latencies),
    sendLagP99: summarize(measured.rate.gateway.result.sendLagMs).p99,
  };
}

export type Latencies = ReturnType<typeof latencies>;

/**
 * The mock's CPU per request in a direct phase: what a do-nothing Node HTTP server costs per request on this
 * machine at this rate. At a low rate every request pays its own wake-ups, so both figures rise together; this
 * floor tells how much of the gateway's figure is the platform.
 */
const mockCpuPerRequest = (phase: Phase) =>
  `mock: ${micros((phase.cost.mockSeconds / Math.max(1, phase.result.ok)) * 1e6)}`;
/** The CPU row's cells for one kind of load: the mock's own cost, the gateway's and the bare proxy's. */
/** The gateway's CPU per request, and (in the "added" column) how many times the bare proxy's it is. */
const cpuCells = (direct: Phase, gateway: Phase, floor: Phase) => ({
  direct: mockCpuPerRequest(direct),
  gateway: micros(cpuPerRequestUs(gateway)),
  added: `${(cpuPerRequestUs(gateway) / floorCpuPerRequestUs(floor)).toFixed(2)} × bare`,
  floor: micros(floorCpuPerRequestUs(floor)),
});
/** A latency row's cells: the percentile direct and through the gateway, and what the gateway and the bare proxy add. */
const percentileCells = (p: 'p50' | 'p99', direct: Summary, gateway: Summary, floor: Summary) => ({
  direct: ms(direct[p]),
  gateway: ms(gateway[p]),
  added: signedMs(gateway[p] - direct[p]),
  floor: signedMs(floor[p] - direct[p]),
});

/** A latency row checked against what the gateway may add to the percentile, in milliseconds. */
const addedLatencyRow = (metric: string, p: 'p50' | 'p99', summaries: ThreeSummaries, limit: number) =>
  checked(
    metric,
    percentileCells(p, summaries.direct, summaries.gateway, summaries.floor),
    summaries.gateway[p] - summaries.direct[p],
    limit,
    `≤ +${limit} ms`,
  );

export function resultRows(options: Options, measured: Measured, lat: Latencies): Row[] {
  const { rate, pool, stream, burst, idleRss, peakRss, soak } = measured;
  const tputDirect = throughput(pool.direct);
  const tputGateway = throughput(pool.gateway);
  const rows: Row[] = [
    checked(
      `gateway CPU per request (${options.rate} req/s)`,
      cpuCells(rate.direct, rate.gateway, rate.floor),
      cpuPerRequestUs(rate.gateway),
      TARGET.cpuPerRequestUs,
      `≤ ${TARGET.cpuPerRequestUs} µs`,
    ),
    info(`gateway CPU per request (${options.connections} conns)`, cpuCells(pool.direct, pool.gateway, pool.floor)),
    info(`gateway CPU per stream (${options.chunks} chunks)`, cpuCells(stream.direct, stream.gateway, stream.floor)),
    info(`gateway CPU per stream (burst of ${BURST_CHUNKS})`, cpuCells(burst.direct, burst.gateway, burst.floor)),
    addedLatencyRow(`latency p50 at ${options.rate} req/s`, 'p50', lat.rate, TARGET.addedP50Ms),
    addedLatencyRow(`latency p99 at ${options.rate} req/s`, 'p99', lat.rate, TARGET.addedP99Ms),
    info(`throughput, ${options.connections} connections`, {
      direct: perSecond(tputDirect),
      gateway: perSecond(tputGateway),
      added: `${Math.round((tputGateway / tputDirect) * 100)} % of direct, ${Math.round((tputGateway / throughput(pool.floor)) * 100)} % of bare`,
      floor: perSecond(throughput(pool.floor)),
    }),
    info(`streams per second, bursts of ${BURST_CHUNKS}, ${options.connections} connections`, {
      direct: perSecond(throughput(burst.direct)),
      gateway: perSecond(throughput(burst.gateway)),
      added: `${Math.round((throughput(burst.gateway) / throughput(burst.floor)) * 100)} % of bare`,
      floor: perSecond(throughput(burst.floor)),
    }),
    addedLatencyRow('streaming first byte p50', 'p50', lat.ttfb, TARGET.addedTtfbMs),
    info('streaming first byte p99', percentileCells('p99', lat.ttfb.direct, lat.ttfb.gateway, lat.ttfb.floor)),
    info('gateway RSS at start (idle, before load)', {
      gateway: mib(idleRss.gateway),
      added: mib(idleRss.gateway),
      floor: mib(idleRss.floor),
    }),
    checked(
      'gateway peak RSS (VmHWM)',
      { gateway: mib(peakRss.gateway), added: mib(peakRss.gateway), floor: mib(peakRss.floor) },
      peakRss.gateway / 1024 / 1024,
      TARGET.peakRssMiB,
      `≤ ${TARGET.peakRssMiB} MiB`,
    ),
  ];
  if (soak) {
    const growth = soak.finalRss - soak.baselineRss;
    rows.push(
      checked(
        `RSS growth over a ${options.soakSeconds} s stream soak`,
        { gateway: `${mib(soak.baselineRss)} → ${mib(soak.finalRss)}`, added: mib(growth) },
        growth / 1024 / 1024,
        TARGET.soakGrowthMiB,
        `≤ ${TARGET.soakGrowthMiB} MiB`,
      ),
      checked(
        'gateway peak RSS after the soak',
        { gateway: mib(soak.peakRss), added: mib(soak.peakRss) },
        soak.peakRss / 1024 / 1024,
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
  return rows;
}

export const failedRequests = (phases: Phase[]) => phases.reduce((sum, phase) => sum + phase.result.failed, 0);

/** What makes the figures of this run suspect or noisier than they look. */
export function runWarnings(
  options: Options,
  measured: Measured,
  lat: Latencies,
  pinning: { pinned: boolean; note: string },
): string[] {
  const { phases } = measured;
  const failed = failedRequests(phases);
  const warnings: string[] = [];
  if (failed > 0) warnings.push(`${failed} requests failed: see the phase table; figures are suspect.`);
  if (options.cpuProf) warnings.push('Profiled run (--cpu-prof): the profiler slows the gateway; do not quote.');
  if (!pinning.pinned)
    warnings.push(`Processes were not pinned (${pinning.note}): CPU and latency figures are noisier.`);
  if (loadCoreBusy(measured.pool.direct) > 0.9) {
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
  const lagP99 = lat.sendLagP99;
  if (lagP99 > 2) warnings.push(`Sends left up to ${lagP99.toFixed(1)} ms late (p99): the load core was busy.`);
  return warnings;
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

export function profileSection(summary: ProfileSummary, copiedTo: string): string {
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

export function environmentLine(pinNote: string): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  return `Node ${process.version}, ${cpus().length} × ${cpu}, Linux ${release()}; ${pinNote}.`;
}

export interface ReportText {
  environment: string;
  /** The result table, as printed on the terminal. */
  table: string;
  warnings: string[];
  /** The size of the non-streaming request body, in bytes. */
  chatBytes: number;
  gatewayStderr: string;
  /** The CPU profile section, empty when there is none. */
  profileText: string;
}

/** The whole Markdown document written to --out: the table, the warnings, then the details behind the figures. */
export function markdownReport(options: Options, measured: Measured, lat: Latencies, text: ReportText): string {
  const { pool, phases, soak } = measured;
  const { warnings, gatewayStderr, profileText } = text;
  const busiest = Math.max(...phases.map(loadCoreBusy));
  return [
    '# Gateway benchmark',
    '',
    `Command: \`${commandLine()}\` (after \`npx tsc -b packages/shared packages/server\`), ${new Date().toISOString()}.`,
    '',
    text.environment,
    '',
    text.table,
    '',
    ...(warnings.length ? ['**Warnings**', '', ...warnings.map((w) => `- ${w}`), ''] : []),
    '## Details',
    '',
    `Requests: non-streaming chat (\`${BENCH_MODEL}\`, ${text.chatBytes} bytes, answered with usage), ` +
      `streaming chat with \`include_usage\` (${options.chunks} content chunks, ${options.chunkDelayMs} ms apart). ` +
      'The mock answers at once; latencies are measured by the client from send to last byte (first byte for TTFB).',
    '',
    '| latency | samples | p50 | p90 | p99 | max | mean |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    latencyLine(`direct, ${options.rate} req/s`, lat.rate.direct),
    latencyLine(`gateway, ${options.rate} req/s`, lat.rate.gateway),
    latencyLine(`bare Node proxy, ${options.rate} req/s`, lat.rate.floor),
    latencyLine(`direct, ${options.connections} conns`, summarize(pool.direct.result.latencies)),
    latencyLine(`gateway, ${options.connections} conns`, summarize(pool.gateway.result.latencies)),
    latencyLine(`bare Node proxy, ${options.connections} conns`, summarize(pool.floor.result.latencies)),
    latencyLine('direct, stream first byte', lat.ttfb.direct),
    latencyLine('gateway, stream first byte', lat.ttfb.gateway),
    latencyLine('bare Node proxy, stream first byte', lat.ttfb.floor),
    latencyLine('direct, whole stream', lat.wholeStream.direct),
    latencyLine('gateway, whole stream', lat.wholeStream.gateway),
    '',
    phaseDetails(phases),
    '',
    `Load core busiest at ${Math.round(busiest * 100)} %; fixed-rate send lag p99 ${lat.sendLagP99.toFixed(2)} ms.`,
    ...(soak
      ? [
          '',
          '### Soak: gateway RSS every 5 s',
          '',
          soak.samples.map((s) => `${Math.round(s.atSeconds)} s: ${mib(s.rss)}`).join(', '),
        ]
      : []),
    ...(gatewayStderr.trim() ? ['', '### Gateway stderr (last lines)', '', '```', gatewayStderr.trim(), '```'] : []),
    ...(profileText ? ['', profileText] : []),
    '',
  ].join('\n');
}
