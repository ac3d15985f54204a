/** Starting, pinning and stopping the processes under test. */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';

/** Which CPU each side runs on, or null when the processes are left to the scheduler. */
export interface Pinning {
  /** The load generator (this process) and the mock upstream share this core. */
  loadCpu: number;
  /** The gateway gets a core of its own, so its CPU time and latency are not disturbed by the load it serves. */
  gatewayCpu: number;
}

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Decides the pinning and applies the load generator's half to this very process (all of its threads). */
export function pinSelf(wanted: boolean): { pinning: Pinning | null; note: string } {
  if (!wanted) return { pinning: null, note: 'not pinned (--no-pin)' };
  if (availableParallelism() < 2) return { pinning: null, note: 'not pinned (fewer than 2 CPUs)' };
  if (!hasTaskset()) return { pinning: null, note: 'not pinned (taskset not found)' };
  const pinning = { loadCpu: 0, gatewayCpu: 1 };
  // -a: every thread, or libuv's pool and V8's helpers would still roam onto the gateway's core.
  execFileSync('taskset', ['-a', '-p', '-c', String(pinning.loadCpu), String(process.pid)], { stdio: 'ignore' });
  return {
    pinning,
    note: `gateway on CPU ${pinning.gatewayCpu}; load generator and mock upstream on CPU ${pinning.loadCpu} (taskset)`,
  };
}

/** Every child still running, so that an orchestrator that fails halfway leaves nothing behind. */
const children = new Set<ChildProcess>();

export interface Started {
  label: string;
  child: ChildProcess;
  pid: number;
  /** Everything the child wrote to stderr so far, shown when it dies early. */
  stderr: () => string;
}

/**
 * Throws when the child is gone. The gateway can crash, and on a shared machine someone's `pkill -f dist/main.js`
 * can take ours too: say which process left and how, instead of failing later on a missing /proc file.
 */
export function assertRunning(started: Started): void {
  const { child } = started;
  if (child.exitCode === null && child.signalCode === null) return;
  const how = child.signalCode ? `killed by ${child.signalCode}` : `exited with code ${child.exitCode}`;
  const errors = started.stderr().trim();
  throw new Error(`the ${started.label} (pid ${started.pid}) ${how} during the run${errors ? `:\n${errors}` : ''}`);
}

/**
 * Spawns `command args` on the given CPU. taskset execs the command in place, so the pid we get is the pid of
 * the measured process itself, which is what the /proc readers need.
 */
export function startPinned(
  label: string,
  cpu: number | null,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Started {
  const [file, argv] = cpu === null ? [command, args] : ['taskset', ['-c', String(cpu), command, ...args]];
  const child = spawn(file, argv, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let errors = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    // Bounded: a chatty child must not grow this process's memory during a long soak.
    errors = (errors + text).slice(-8192);
  });
  if (child.pid === undefined) throw new Error(`could not start ${command}`);
  children.add(child);
  child.once('exit', () => children.delete(child));
  return { label, child, pid: child.pid, stderr: () => errors };
}

/** Reads the first stdout line of a child as JSON (the mock announces its port this way). */
export async function firstJsonLine<T>(started: Started, timeoutMs: number): Promise<T> {
  const { child } = started;
  return new Promise<T>((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(
      () => reject(new Error(`no announcement within ${timeoutMs} ms: ${started.stderr()}`)),
      timeoutMs,
    );
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (text: string) => {
      buffered += text;
      const newline = buffered.indexOf('\n');
      if (newline < 0) return;
      clearTimeout(timer);
      try {
        resolve(JSON.parse(buffered.slice(0, newline)) as T);
      } catch (error) {
        reject(error);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before announcing itself: ${started.stderr()}`));
    });
  });
}

/** A port nobody listens on right now (the gateway needs a fixed PORT; 0 would leave us guessing). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  server.close();
  await once(server, 'close');
  return port;
}

/** Polls `url` until it answers 200, the child dies, or the time is up. */
export async function waitForHttp(url: string, started: Started, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (started.child.exitCode !== null) {
      throw new Error(`the process exited with ${started.child.exitCode} during start:\n${started.stderr()}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${started.stderr()}`);
}

/** SIGTERM (the gateway drains and exits, writing its CPU profile if asked), then SIGKILL after `graceMs`. */
export async function stopProcess(started: Started, graceMs = 10_000): Promise<void> {
  const { child } = started;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Last resort when the orchestrator itself is leaving: no child may outlive it. */
export function killAllChildren(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
