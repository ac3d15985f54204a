/**
 * `npm run bench:instructions`: instructions per request, gateway against the bare Node proxy, counted by valgrind's
 * callgrind. CPU seconds on a shared virtual machine move by a third from one run to the next; instruction counts of
 * the same build and load repeat within a few percent, so this is the figure to compare builds with. It does not
 * count the kernel's share (syscalls) nor cache misses: bench/run.ts's CPU time does. See bench/README.md.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type Instructions, readCallgrindDump } from './lib/callgrind.js';
import { makeClients } from './lib/clients.js';
import { prepareGateway, startFlags, startGateway } from './lib/gateway.js';
import { closedLoop, type LoadClient } from './lib/load.js';
import { log } from './lib/log.js';
import { ROOT } from './lib/options.js';
import { firstJsonLine, killAllChildren, pinSelf, type Started, startPinned, stopProcess } from './lib/processes.js';
import { pipeTable } from './lib/report.js';

const { values } = parseArgs({
  options: {
    'warmup-seconds': { type: 'string', default: '150' },
    seconds: { type: 'string', default: '40' },
    connections: { type: 'string', default: '10' },
    out: { type: 'string', default: 'bench/results/instructions.md' },
  },
});
const warmupSeconds = Number(values['warmup-seconds']);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const plainEnv = { PATH: process.env.PATH, HOME: process.env.HOME };

/**
 * valgrind names the pipes callgrind_control talks through after the HOST variable of the measured process; the
 * gateway has HOST (its listen address), the bare proxy has none, and callgrind_control must see the same value.
 */
function callgrindControl(started: Started, command: '-z' | '-d', host: string | undefined): void {
  execFileSync('callgrind_control', [command, String(started.pid)], {
    env: { ...plainEnv, ...(host ? { HOST: host } : {}) },
    stdio: 'ignore',
  });
}

async function newestDump(dir: string, pid: number): Promise<string> {
  const prefix = `cg.${pid}.`;
  for (let waited = 0; waited < 60_000; waited += 250) {
    const dumps = readdirSync(dir).filter((name) => name.startsWith(prefix));
    if (dumps.length) return join(dir, dumps.sort().at(-1)!);
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error(`callgrind wrote no dump for pid ${pid} in ${dir}`);
}

/**
 * The warm-up is long because valgrind runs Node about fifty times slower: V8 must have optimised the hot functions
 * before counting starts, or the compiler's own work would be counted as the request's.
 */
async function count(label: string, started: Started, client: LoadClient, dir: string, host?: string) {
  log(`${label}: warming up under callgrind for ${warmupSeconds} s ...`);
  const warm = await closedLoop(client, connections, warmupSeconds);
  log(`${label}:   ${warm.ok} requests`);
  callgrindControl(started, '-z', host);
  const measured = await closedLoop(client, connections, seconds);
  callgrindControl(started, '-d', host);
  if (measured.failed > 0) throw new Error(`${label}: ${measured.failed} requests failed while counting`);
  log(`${label}:   ${measured.ok} requests counted`);
  return { requests: measured.ok, instructions: readCallgrindDump(await newestDump(dir, started.pid)) };
}

function report(floor: { requests: number; instructions: Instructions }, gateway: typeof floor): string {
  const perRequest = (side: typeof floor, part: keyof Instructions) => side.instructions[part] / side.requests / 1000;
  const parts: Array<[keyof Instructions, string]> = [
    ['total', 'all instructions'],
    ['compiledJs', 'JavaScript compiled by V8 (JIT code)'],
    ['node', 'the node binary (V8 runtime and builtins, GC, libuv, http parser)'],
    ['sqlite', 'SQLite (better-sqlite3: the usage log)'],
    ['other', 'C and C++ libraries'],
  ];
  const rows = parts.map(([part, what]) => {
    const bare = perRequest(floor, part);
    const through = perRequest(gateway, part);
    const ratio = bare > 0 ? through / bare : Number.NaN;
    const total = part === 'total';
    return [
      what,
      bare.toFixed(1),
      through.toFixed(1),
      Number.isFinite(ratio) ? `${ratio.toFixed(2)} ×` : '—',
      total ? '≤ 1.5 ×' : '—',
      total ? (ratio <= 1.5 ? 'pass' : 'FAIL') : '—',
    ];
  });
  const table = pipeTable(
    ['thousand instructions per request', 'bare Node proxy', 'gateway', 'gateway / bare', 'target', 'result'],
    rows,
  );
  return [
    `# Instructions per request (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC)`,
    '',
    `Closed loop of ${connections} connections; ${warmupSeconds} s warm-up, then ${seconds} s counted; ` +
      `${floor.requests} requests counted through the bare proxy, ${gateway.requests} through the gateway.`,
    '',
    table,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error('valgrind is not installed (Debian: apt-get install valgrind)');
  }
  const { pinning, note } = pinSelf(true);
  log(note);
  const work = mkdtempSync(join(tmpdir(), 'gateway-instructions-'));
  const valgrind = [
    'valgrind',
    '--tool=callgrind',
    `--callgrind-out-file=${join(work, 'cg.%p')}`,
    // V8 writes machine code into memory it then runs: valgrind must check every such page, or it runs stale code.
    '--smc-check=all-non-file',
    '--collect-jumps=no',
  ];
  try {
    const mock = startPinned(
      'mock upstream',
      pinning?.loadCpu ?? null,
      process.execPath,
      ['--import', 'tsx', resolve(ROOT, 'bench/mock-upstream.ts')],
      plainEnv,
      ROOT,
    );
    const mockUrl = `http://127.0.0.1:${(await firstJsonLine<{ port: number }>(mock, 30_000)).port}`;

    const [vgCommand, ...vgArgs] = valgrind;
    const floorProcess = startPinned(
      'bare Node proxy',
      pinning?.gatewayCpu ?? null,
      vgCommand!,
      [...vgArgs, process.execPath, ...startFlags(ROOT), resolve(ROOT, 'bench/floor-proxy.mjs'), '--upstream', mockUrl],
      plainEnv,
      ROOT,
    );
    const floorPort = (await firstJsonLine<{ port: number }>(floorProcess, 300_000)).port;
    const floorClients = makeClients({ mock: 0, gateway: floorPort, floor: floorPort }, 'unused', connections);
    const floor = await count('bare Node proxy', floorProcess, floorClients.pool.floor, work);
    for (const client of floorClients.all) client.close();
    await stopProcess(floorProcess);

    const gatewayProcess = await startGateway({
      root: ROOT,
      cpu: pinning?.gatewayCpu ?? null,
      dataDir: work,
      nodeFlags: [],
      wrapper: valgrind,
      startTimeoutMs: 300_000,
    });
    const key = await prepareGateway(gatewayProcess.baseUrl, mockUrl);
    const clients = makeClients({ mock: 0, gateway: gatewayProcess.port, floor: 0 }, key, connections);
    const gateway = await count('gateway', gatewayProcess, clients.pool.gateway, work, '127.0.0.1');
    for (const client of clients.all) client.close();
    await stopProcess(gatewayProcess);
    await stopProcess(mock);

    const markdown = report(floor, gateway);
    const out = resolve(ROOT, values.out);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, markdown);
    console.log(`\n${markdown}`);
    log(`written to ${relative(ROOT, out)}`);
  } finally {
    killAllChildren();
    if (existsSync(work)) rmSync(work, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`[bench] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    killAllChildren();
    process.exit(1);
  },
);
