import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCacheSync } from '../src/jobs/cache-sync.js';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { addChannel } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { gate, until } from './helpers/wait.js';

/** A sync runs every second here; ten give a loaded machine room. */
const SYNC_WAIT = { timeoutMs: 10_000, everyMs: 50 };

const dialects = await availableDialects();

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
      await until(() => second.ctx.options.get('RetryTimes') === '4', {
        ...SYNC_WAIT,
        what: 'the option on the second node',
      });
      await until(() => second.ctx.channelCache.candidates('default', 'synced-model').length === 1, {
        ...SYNC_WAIT,
        what: 'the channel on the second node',
      });
    } finally {
      stop();
    }
  });

  it('a reload whose read began before an option was set does not put the old value back', async () => {
    const repo = first.ctx.repos.options;
    const realAll = repo.all;
    const release = gate();
    const fetched = gate();
    repo.all = async () => {
      const rows = await realAll();
      fetched.open();
      await release.held;
      return rows;
    };
    try {
      const reload = first.ctx.options.load();
      await fetched.held;
      expect((await root.put('/api/option/', { key: 'RetryTimes', value: '2' })).success).toBe(true);
      release.open();
      await reload;
      expect(first.ctx.options.get('RetryTimes')).toBe('2');
    } finally {
      release.open();
      repo.all = realAll;
    }
  });
});
