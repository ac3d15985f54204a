import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin, signedInUser } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const dialects = await availableDialects();

type ReadBase = (kind: 'user' | 'token', id: number) => Promise<number>;

describe.each(dialects)('quota ledger: a balance read that began before an admin set the quota (%s)', (dialect) => {
  let server: TestServer;
  let root: ApiClient;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    root = await setupAndLogin(server.baseUrl);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('is not taken as the balance: the next request sees the quota the admin set', async () => {
    const carol = await signedInUser(server.baseUrl, server.ctx.repos, 'carol');
    const userId = carol.userId!;
    const ledger = server.ctx.ledger as unknown as { readBase: ReadBase };
    const realRead = ledger.readBase.bind(ledger);
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let fetched!: () => void;
    const firstReadDone = new Promise<void>((resolve) => {
      fetched = resolve;
    });
    let reads = 0;
    // The real read against the database; the first one is held after it has fetched the old row.
    ledger.readBase = async (kind, id) => {
      const value = await realRead(kind, id);
      if (kind === 'user' && id === userId && ++reads === 1) {
        fetched();
        await held;
      }
      return value;
    };
    try {
      const firstRequest = server.ctx.ledger.prepare(userId, null);
      await firstReadDone;
      const edit = await root.put('/api/user/', { id: userId, username: 'carol', quota: 777_000, group: 'default' });
      expect(edit.success).toBe(true);
      const nextRequest = server.ctx.ledger.prepare(userId, null);
      release();
      await Promise.all([firstRequest, nextRequest]);
      expect(server.ctx.ledger.available('user', userId)).toBe(777_000);
      expect(reads).toBe(2);
    } finally {
      release();
      ledger.readBase = realRead;
    }
  });
});
