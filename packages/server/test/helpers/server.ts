import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { closeContext, createContext } from '../../src/bootstrap.js';
import { loadConfig } from '../../src/config.js';
import type { AppContext } from '../../src/context.js';
import { createTestDatabase, type DialectName, type TestDatabase } from './databases.js';

export interface TestServer {
  baseUrl: string;
  ctx: AppContext;
  app: FastifyInstance;
  database: TestDatabase;
  close(): Promise<void>;
}

export const TEST_SESSION_SECRET = 'test-session-secret-0123456789abcdef';

/** The setup token each running test server made (what its operator would read in the log), by base URL. */
const setupTokens = new Map<string, string>();

/** The one-time setup token the server at `baseUrl` printed; '' when it needs none (set up already). */
export function setupTokenOf(baseUrl: string): string {
  return setupTokens.get(baseUrl) ?? '';
}

/** For a server started as a process of its own: the token it printed or wrote, for `setupAndLogin`. */
export function rememberSetupToken(baseUrl: string, token: string | null): void {
  if (token) setupTokens.set(baseUrl, token);
}

/** The token a server process wrote beside its SQLite file, as an operator would read it; null when none. */
export function setupTokenBeside(sqlitePath: string): string | null {
  const file = join(dirname(sqlitePath), '.setup_token');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : null;
}

/** The token a server process printed to its log (main.ts), or null when it printed none. */
export function setupTokenInLog(output: string): string | null {
  return /one-time setup token[^\n]*?: ([A-Za-z0-9_-]{16,})/.exec(output)?.[1] ?? null;
}

/** The real app on a random port over a fresh database: tests talk to it over a socket like any client. */
export async function startTestServer(
  dialect: DialectName = 'sqlite',
  env: Record<string, string> = {},
  shared?: TestDatabase,
): Promise<TestServer> {
  // A second node of a cluster passes the first node's database; only the node that made it drops it.
  const database = shared ?? (await createTestDatabase(dialect));
  const config = loadConfig({
    ...database.env,
    SESSION_SECRET: TEST_SESSION_SECRET,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    CRITICAL_RATE_LIMIT: '1000',
    // Every test talks from 127.0.0.1: the per-IP global limits would otherwise cut long test files short.
    GLOBAL_API_RATE_LIMIT: '100000',
    GLOBAL_WEB_RATE_LIMIT: '100000',
    ...env,
  });
  const ctx = await createContext(config);
  const app = await buildApp(ctx);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  if (ctx.setup.token) setupTokens.set(baseUrl, ctx.setup.token.value);
  return {
    baseUrl,
    ctx,
    app,
    database,
    async close() {
      setupTokens.delete(baseUrl);
      await app.close();
      await closeContext(ctx);
      if (!shared) await database.drop();
    },
  };
}
