import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './helpers/child-server.js';
import { setupAndLogin } from './helpers/client.js';
import { addChannel, addToken } from './helpers/relay.js';
import { rememberSetupToken, setupTokenBeside } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

const MAIN = resolve(import.meta.dirname, '../dist/main.js');

describe('graceful shutdown of the built server', () => {
  let mock: MockUpstream;
  let dir: string;

  beforeAll(async () => {
    mock = await startMockUpstream();
    dir = mkdtempSync(join(tmpdir(), 'gateway-shutdown-'));
  });
  afterAll(async () => {
    await mock?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('on SIGTERM finishes the stream in flight, then writes its bill and log before exiting', async () => {
    const port = await freePort();
    const dbPath = join(dir, 'one-api.db');
    // A long flush interval proves the final write comes from the shutdown, not from the timer.
    const child = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        SQLITE_PATH: dbPath,
        SQL_DSN: '',
        REDIS_CONN_STRING: '',
        SESSION_SECRET: 'shutdown-secret-0123456789',
        LOG_LEVEL: 'warn',
        BATCH_UPDATE_INTERVAL: '60',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const baseUrl = `http://127.0.0.1:${port}`;
    await expect
      .poll(
        async () =>
          fetch(`${baseUrl}/api/status`)
            .then((r) => r.ok)
            .catch(() => false),
        { timeout: 20_000 },
      )
      .toBe(true);

    rememberSetupToken(baseUrl, setupTokenBeside(dbPath));

    const root = await setupAndLogin(baseUrl);
    await addChannel(root, { type: 1, key: 'k', base_url: mock.baseUrl, models: 'gpt-4o' });
    const key = await addToken(root, { remain_quota: 1_000_000 });
    mock.enqueue('openai.chat', {
      kind: 'ok',
      text: 'one two three four five six seven eight',
      chunkDelayMs: 150,
      usage: { prompt: 1000, completion: 500 },
    });

    const response = await fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'count' }] }),
    });
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    child.kill('SIGTERM');
    let body = new TextDecoder().decode(first.value);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      body += new TextDecoder().decode(value);
    }
    expect(body).toContain('eight');
    expect(body.trim().endsWith('data: [DONE]')).toBe(true);
    expect(await exited).toBe(0);

    const db = new Database(dbPath, { readonly: true });
    const log = db.prepare('SELECT quota, prompt_tokens, completion_tokens FROM logs WHERE type = 2').get() as Record<
      string,
      number
    >;
    const token = db.prepare('SELECT remain_quota, used_quota FROM tokens WHERE key = ?').get(key.slice(3)) as Record<
      string,
      number
    >;
    db.close();
    // (1000 + 500 × 4) × 1.25 = 3750
    expect(log).toEqual({ quota: 3750, prompt_tokens: 1000, completion_tokens: 500 });
    expect(token).toEqual({ remain_quota: 1_000_000 - 3750, used_quota: 3750 });
    expect(output).not.toMatch(/"level":50/);
  });
});
