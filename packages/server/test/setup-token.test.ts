import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { setupTokenNotice } from '../src/auth/setup-token.js';
import { ApiClient, ROOT } from './helpers/client.js';
import { createTestDatabase, type TestDatabase } from './helpers/databases.js';
import { startTestServer } from './helpers/server.js';

const SETUP = { ...ROOT, confirmPassword: ROOT.password };

describe('the one-time setup token of a fresh SQLite instance', () => {
  let database: TestDatabase;
  afterAll(async () => database?.drop());

  it('is written beside the database, kept over a restart, opens setup once and is then gone', async () => {
    database = await createTestDatabase('sqlite');
    const file = join(dirname(database.env.SQLITE_PATH!), '.setup_token');
    const first = await startTestServer('sqlite', {}, database);
    const token = first.ctx.setup.token!;
    expect(token).toMatchObject({ generated: true, file });
    expect(readFileSync(file, 'utf8')).toBe(token.value);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(setupTokenNotice(token)).toContain(token.value);
    await first.close();

    // A restart before setup keeps the token the operator may already have copied.
    const second = await startTestServer('sqlite', {}, database);
    expect(second.ctx.setup.token?.value).toBe(token.value);
    const client = new ApiClient(second.baseUrl);
    expect((await client.get('/api/setup')).data).toMatchObject({ status: false, setup_token_required: true });
    expect((await client.post('/api/setup', SETUP)).success).toBe(false);
    expect((await client.post('/api/setup', { ...SETUP, setup_token: token.value })).success).toBe(true);
    expect(existsSync(file)).toBe(false);
    expect((await client.get('/api/setup')).data).toMatchObject({ status: true, setup_token_required: false });
    // Set up: the token opens nothing any more.
    expect(await client.post('/api/setup', { ...SETUP, setup_token: token.value })).toMatchObject({
      success: false,
      message: '系统已经初始化完成',
    });
    await second.close();

    // An instance already set up makes no token at all.
    const third = await startTestServer('sqlite', {}, database);
    expect(third.ctx.setup).toMatchObject({ done: true, token: null });
    expect(existsSync(file)).toBe(false);
    await third.close();
  });
});

describe('the setup token on two nodes of one database', () => {
  it('is forgotten by a node once another node has done the setup', async () => {
    const a = await startTestServer('sqlite');
    const b = await startTestServer('sqlite', {}, a.database);
    try {
      const client = new ApiClient(b.baseUrl);
      expect((await client.post('/api/setup', { ...SETUP, setup_token: b.ctx.setup.token!.value })).success).toBe(true);
      expect((await new ApiClient(a.baseUrl).get('/api/setup')).data).toMatchObject({
        status: true,
        setup_token_required: false,
      });
      expect(a.ctx.setup).toMatchObject({ done: true, token: null });
    } finally {
      await b.close();
      await a.close();
    }
  });
});

describe('SETUP_TOKEN for automated installs', () => {
  it('is the token: nothing is generated, written or printed', async () => {
    const server = await startTestServer('sqlite', { SETUP_TOKEN: 'install-robot-token-1' });
    try {
      expect(server.ctx.setup.token).toEqual({ value: 'install-robot-token-1', generated: false, file: null });
      expect(existsSync(join(dirname(server.database.env.SQLITE_PATH!), '.setup_token'))).toBe(false);
      const client = new ApiClient(server.baseUrl);
      expect((await client.post('/api/setup', SETUP, { 'X-Setup-Token': 'install-robot-token-2' })).success).toBe(
        false,
      );
      expect((await client.post('/api/setup', SETUP, { 'X-Setup-Token': 'install-robot-token-1' })).success).toBe(true);
      await client.login(ROOT.username, ROOT.password);
    } finally {
      await server.close();
    }
  });
});
