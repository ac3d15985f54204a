import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin, signedInUser } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { addToken } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { gate } from './helpers/wait.js';

const dialects = await availableDialects();

type ReadBase = (kind: 'user' | 'token', id: number) => Promise<number>;

describe.each(dialects)('reads that began before an admin change are not kept in memory (%s)', (dialect) => {
  let server: TestServer;
  let root: ApiClient;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    root = await setupAndLogin(server.baseUrl);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('quota ledger: a balance read under way when the admin set the quota is not taken as the balance', async () => {
    const carol = await signedInUser(server.baseUrl, server.ctx.repos, 'carol');
    const userId = carol.userId!;
    const ledger = server.ctx.ledger as unknown as { readBase: ReadBase };
    const realRead = ledger.readBase.bind(ledger);
    const release = gate();
    const fetched = gate();
    let reads = 0;
    // The real read against the database; the first one is held after it has fetched the old row.
    ledger.readBase = async (kind, id) => {
      const value = await realRead(kind, id);
      if (kind === 'user' && id === userId && ++reads === 1) {
        fetched.open();
        await release.held;
      }
      return value;
    };
    try {
      const firstRequest = server.ctx.ledger.prepare(userId, null);
      await fetched.held;
      const edit = await root.put('/api/user/', { id: userId, username: 'carol', quota: 777_000, group: 'default' });
      expect(edit.success).toBe(true);
      const nextRequest = server.ctx.ledger.prepare(userId, null);
      release.open();
      await Promise.all([firstRequest, nextRequest]);
      expect(server.ctx.ledger.available('user', userId)).toBe(777_000);
      expect(reads).toBe(2);
    } finally {
      release.open();
      ledger.readBase = realRead;
    }
  });

  it('API keys: a token read under way when the token was disabled is not cached; the next call sees it disabled', async () => {
    const key = (await addToken(root, { name: 'racer', unlimited_quota: true })).replace(/^sk-/, '');
    const tokens = server.ctx.repos.tokens;
    const realFind = tokens.findByKey;
    const { id } = (await realFind(key))!;
    const release = gate();
    const fetched = gate();
    tokens.findByKey = async (wanted) => {
      const row = await realFind(wanted);
      if (wanted === key) {
        fetched.open();
        await release.held;
      }
      return row;
    };
    try {
      const firstCall = server.ctx.authCache.token(key);
      await fetched.held;
      tokens.findByKey = realFind;
      expect((await root.put('/api/token/?status_only=true', { id, status: 2 })).success).toBe(true);
      release.open();
      // The call that was already reading answers with the row as it found it; nothing after it may.
      expect((await firstCall)?.status).toBe(1);
      expect((await server.ctx.authCache.token(key))?.status).toBe(2);
    } finally {
      release.open();
      tokens.findByKey = realFind;
    }
  });
});
