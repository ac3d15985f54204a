import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startFlags } from '../../../../scripts/start-flags.mjs';

const REPO = resolve(import.meta.dirname, '../../../..');

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface Product {
  baseUrl: string;
  dataDir: string;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * Starts the built product exactly as `npm start` runs it (node packages/server/dist/main.js serving
 * packages/web/dist) on a fresh SQLite file and a free port.
 */
export async function startProduct(env: Record<string, string> = {}): Promise<Product> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-e2e-'));
  const port = await freePort();
  let log = '';
  const child: ChildProcess = spawn(
    process.execPath,
    [...startFlags(REPO), join(REPO, 'packages/server/dist/main.js')],
    {
      cwd: REPO,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        SQLITE_PATH: join(dataDir, 'one-api.db'),
        SQL_DSN: '',
        REDIS_CONN_STRING: '',
        SESSION_SECRET: 'e2e-session-secret-0123456789abcdef',
        LOG_LEVEL: 'warn',
        CRITICAL_RATE_LIMIT: '1000',
        // Every test talks from 127.0.0.1: the per-IP global limits would otherwise cut long test files short.
        GLOBAL_API_RATE_LIMIT: '100000',
        GLOBAL_WEB_RATE_LIMIT: '100000',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (chunk) => {
    log += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    log += chunk;
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`product exited early:\n${log}`);
    try {
      const response = await fetch(`${baseUrl}/api/status`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`product did not start within 30 s:\n${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    baseUrl,
    dataDir,
    output: () => log,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
