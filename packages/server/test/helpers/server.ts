import type { AddressInfo } from 'node:net';
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
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    ctx,
    app,
    database,
    async close() {
      await app.close();
      await closeContext(ctx);
      if (!shared) await database.drop();
    },
  };
}
