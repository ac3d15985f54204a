import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ROOT, setupAndLogin } from './helpers/client.js';
import { addChannel } from './helpers/relay.js';
import { rememberSetupToken, setupTokenBeside } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

const SERVER_DIR = resolve(import.meta.dirname, '..');
const CHANNEL_KEY = 'sk-upstream-never-logged-5e8a0c';
const ALICE = { username: 'alice', password: 'alice-pass-3f7d91' };
const WRONG_PASSWORD = 'wrong-pass-b62e04';
const NEW_PASSWORD = 'alice-newpass-0c4d2a';
const SMTP_SECRET = 'smtp-token-never-logged-9a1b';

async function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * The server's own output at the most verbose level, from a real process (the logger writes straight to the file
 * descriptors, so only a separate process shows exactly what an operator's log files would hold), after the things
 * that handle secrets: relay calls that succeed and fail, sign-ins that fail, a channel test, a secret option saved
 * and a password changed.
 */
describe('server logs', () => {
  let mock: MockUpstream;
  let dir: string;
  let child: ChildProcess;
  let output = '';
  let baseUrl: string;

  beforeAll(async () => {
    mock = await startMockUpstream();
    dir = mkdtempSync(join(tmpdir(), 'gateway-logs-'));
    const port = await freePort();
    child = spawn(process.execPath, ['--conditions=gateway-source', '--import', 'tsx', 'src/main.ts'], {
      cwd: SERVER_DIR,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        SQLITE_PATH: join(dir, 'one-api.db'),
        SQL_DSN: '',
        REDIS_CONN_STRING: '',
        SESSION_SECRET: 'logs-test-secret-0123456789',
        LOG_LEVEL: 'trace',
        CRITICAL_RATE_LIMIT: '1000',
        CHANNEL_TEST_FREQUENCY: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    baseUrl = `http://127.0.0.1:${port}`;
    // Starting from source compiles on the fly: wait (bounded) until it answers.
    for (let attempt = 0; attempt < 200; attempt++) {
      const up = await fetch(`${baseUrl}/api/status`)
        .then((response) => response.ok)
        .catch(() => false);
      if (up || child.exitCode !== null) break;
      await new Promise((done) => setTimeout(done, 200));
    }
    if (child.exitCode !== null) throw new Error(`the server did not start:\n${output}`);
  }, 60_000);
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
    await mock?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('hold no channel key, API key, password or secret option after the calls that carry them', async () => {
    rememberSetupToken(baseUrl, setupTokenBeside(join(dir, 'one-api.db')));
    const root = await setupAndLogin(baseUrl);
    const channelId = await addChannel(root, { type: 1, key: CHANNEL_KEY, base_url: mock.baseUrl, models: 'gpt-4o' });
    expect((await root.put('/api/option/', { key: 'SMTPToken', value: SMTP_SECRET })).success).toBe(true);
    expect((await root.post('/api/user/', { ...ALICE, display_name: 'Alice' })).success).toBe(true);
    const users = await root.get<{ items: Array<{ id: number; username: string }> }>('/api/user/?keyword=alice');
    const aliceId = users.data.items.find((user) => user.username === 'alice')!.id;
    await root.post('/api/user/manage', { id: aliceId, action: 'add_quota', value: 10_000_000 });

    // Sign-ins that fail: a wrong password for a real account, and an unknown account.
    const stranger = new ApiClient(baseUrl);
    expect((await stranger.post('/api/user/login', { ...ALICE, password: WRONG_PASSWORD })).success).toBe(false);
    expect((await stranger.post('/api/user/login', { username: 'nobody', password: WRONG_PASSWORD })).success).toBe(
      false,
    );

    const alice = new ApiClient(baseUrl);
    await alice.login(ALICE.username, ALICE.password);
    const created = await alice.post<Array<{ key: string }>>('/api/token/', { name: 'k', unlimited_quota: true });
    const apiKey = created.data[0]!.key;
    const accessToken = (await alice.get<string>('/api/user/token')).data;

    const relay = (body: Record<string, unknown>, key = apiKey) =>
      fetch(`${baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], ...body }),
      });
    expect((await relay({})).status).toBe(200);
    expect((await (await relay({ stream: true })).text()).includes('[DONE]')).toBe(true);
    mock.enqueue('openai.chat', { kind: 'status', status: 500, message: 'upstream exploded' });
    mock.enqueue('openai.chat', { kind: 'reset-before' });
    expect((await relay({})).status).toBeGreaterThanOrEqual(500);
    expect((await relay({}, `${apiKey.slice(0, -4)}zzzz`)).status).toBe(401);
    // The console's access token as a relay key, and a broken body, take other error paths.
    expect((await relay({}, accessToken)).status).toBe(401);
    const broken = await fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${apiKey}`, 'content-type': 'application/json' },
      body: '{"model":',
    });
    expect(broken.status).toBe(400);

    // A channel test that passes and one the upstream refuses (nothing left queued from the relay calls).
    mock.reset();
    const passed = await root.get<unknown>(`/api/channel/test/${channelId}`);
    expect(passed.success, passed.message).toBe(true);
    mock.enqueue('openai.chat', { kind: 'status', status: 401, message: 'invalid api key' });
    expect((await root.get<unknown>(`/api/channel/test/${channelId}`)).success).toBe(false);
    await root.get('/api/channel/update_balance');

    const changed = await alice.put('/api/user/self', { original_password: ALICE.password, password: NEW_PASSWORD });
    expect(changed.success).toBe(true);

    // Stopping the server writes its last lines (buffers flushed, shutdown).
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await exited;

    // The capture works: the verbose level was on and the server did write lines.
    expect(output).toContain('storage ready');
    expect(output).toContain('channels created');
    for (const secret of [
      CHANNEL_KEY,
      apiKey,
      accessToken,
      ALICE.password,
      WRONG_PASSWORD,
      NEW_PASSWORD,
      ROOT.password,
      SMTP_SECRET,
    ]) {
      expect(output.includes(secret), `the log holds ${secret}`).toBe(false);
    }
    expect(output).not.toMatch(/\$2[aby]\$\d{2}\$/);
  });
});
