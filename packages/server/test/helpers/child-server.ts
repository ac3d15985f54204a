import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { rememberSetupToken, setupTokenInLog } from './server.js';
import { until } from './wait.js';

const MAIN = resolve(import.meta.dirname, '../../dist/main.js');

export async function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** The built server (npm test builds it first) as a process of its own, so a test can kill it like an operator. */
export interface ChildServer {
  child: ChildProcess;
  baseUrl: string;
  output(): string;
  /** SIGKILL, resolved once the process is gone; returns the moment the signal was sent. */
  kill(): Promise<number>;
}

export async function startChildServer(env: Record<string, string>): Promise<ChildServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      REDIS_CONN_STRING: '',
      SESSION_SECRET: 'child-server-secret-0123456789',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const baseUrl = `http://127.0.0.1:${port}`;
  await until(
    async () =>
      fetch(`${baseUrl}/api/status`)
        .then((r) => r.ok)
        .catch(() => false),
    { timeoutMs: 30_000, everyMs: 50, what: 'server start' },
  ).catch((error: Error) => {
    child.kill('SIGKILL');
    throw new Error(`${error.message}: ${output.slice(-1000)}`);
  });
  // Before setup the server prints its one-time setup token (main.ts): kept for setupAndLogin.
  const setup = (await (await fetch(`${baseUrl}/api/setup`)).json()) as { data: { setup_token_required?: boolean } };
  if (setup.data.setup_token_required) {
    await until(async () => setupTokenInLog(output) !== null, { timeoutMs: 5_000, everyMs: 20, what: 'setup token' });
    rememberSetupToken(baseUrl, setupTokenInLog(output));
  }
  return {
    child,
    baseUrl,
    output: () => output,
    async kill() {
      const exited = new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) done();
        else child.once('exit', () => done());
      });
      const at = Date.now();
      child.kill('SIGKILL');
      await exited;
      return at;
    },
  };
}
