import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCacheSync } from '../src/jobs/cache-sync.js';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { addChannel } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const dialects = await availableDialects();

async function until(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; waited < 10_000; waited += 50) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.each(dialects)('nodes without Redis re-read options and channels every SYNC_FREQUENCY (%s)', (dialect) => {
  let first: TestServer;
  let second: TestServer;
  let root: ApiClient;

  beforeAll(async () => {
    first = await startTestServer(dialect);
    second = await startTestServer(dialect, {}, first.database);
    root = await setupAndLogin(first.baseUrl);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('a change made on one node reaches the other at its next sync, and only through it', async () => {
    expect((await root.put('/api/option/', { key: 'RetryTimes', value: '4' })).success).toBe(true);
    await addChannel(root, { type: 1, key: 'sk-x', base_url: 'http://127.0.0.1:9', models: 'synced-model' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    // No Redis and no sync yet: the second node still has what it read at start.
    expect(second.ctx.options.get('RetryTimes')).not.toBe('4');
    expect(second.ctx.channelCache.candidates('default', 'synced-model')).toEqual([]);

    const stop = startCacheSync(second.ctx, 1);
    try {
      await until(() => second.ctx.options.get('RetryTimes') === '4', 'the option on the second node');
      await until(
        () => second.ctx.channelCache.candidates('default', 'synced-model').length === 1,
        'the channel on the second node',
      );
    } finally {
      stop();
    }
  });

  it('a reload whose read began before an option was set does not put the old value back', async () => {
    const repo = first.ctx.repos.options;
    const realAll = repo.all;
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let fetched!: () => void;
    const read = new Promise<void>((resolve) => {
      fetched = resolve;
    });
    repo.all = async () => {
      const rows = await realAll();
      fetched();
      await held;
      return rows;
    };
    try {
      const reload = first.ctx.options.load();
      await read;
      expect((await root.put('/api/option/', { key: 'RetryTimes', value: '2' })).success).toBe(true);
      release();
      await reload;
      expect(first.ctx.options.get('RetryTimes')).toBe('2');
    } finally {
      release();
      repo.all = realAll;
    }
  });
});
