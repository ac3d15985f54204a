import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyOnceAcrossNodes } from '../src/jobs/leased-job.js';
import { availableDialects } from './helpers/databases.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const dialects = await availableDialects();

// Two nodes on one database: a background job runs once per interval across both, whichever node's tick comes first.
describe.each(dialects)('job leases across two nodes (%s)', (dialect) => {
  let first: TestServer;
  let second: TestServer;

  beforeAll(async () => {
    first = await startTestServer(dialect);
    second = await startTestServer(dialect, {}, first.database);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('gives each interval to exactly one claimant, however many ask at once', async () => {
    const name = `race-${Date.now()}`;
    const claims = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? first : second).ctx.repos.jobLeases.claim(name, `node-${i % 2}-${i}`, 1_000_000, 60_000),
      ),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    const winner = claims.indexOf(true);
    expect(await first.ctx.repos.jobLeases.get(name)).toEqual({
      holder: `node-${winner % 2}-${winner}`,
      run_at: 1_000_000,
    });
  });

  it('lets the next run go only when the gap has passed, to either node', async () => {
    const leases = [first.ctx.repos.jobLeases, second.ctx.repos.jobLeases];
    const name = `gap-${Date.now()}`;
    expect(await leases[0]!.claim(name, 'a', 1_000_000, 60_000)).toBe(true);
    expect(await leases[1]!.claim(name, 'b', 1_000_000 + 59_999, 60_000)).toBe(false);
    expect(await leases[0]!.claim(name, 'a', 1_000_000 + 30_000, 60_000)).toBe(false);
    expect(await leases[1]!.claim(name, 'b', 1_000_000 + 60_000, 60_000)).toBe(true);
    expect(await leases[0]!.claim(name, 'a', 1_000_000 + 60_000, 60_000)).toBe(false);
    expect((await leases[0]!.get(name))?.holder).toBe('b');
  });

  it('runs a timed job on both nodes no more than once per interval in all', async () => {
    const name = `timed-${Date.now()}`;
    const INTERVAL = 150;
    const runs: Array<{ node: string; at: number }> = [];
    const errors: unknown[] = [];
    const start = (server: TestServer, node: string) =>
      everyOnceAcrossNodes(
        server.ctx.repos.jobLeases,
        name,
        INTERVAL,
        async (claimedAt) => {
          runs.push({ node, at: claimedAt });
        },
        (error) => errors.push(error),
        node,
      );
    const stops = [start(first, 'one')];
    // The second node's timer is offset by a third of an interval, as nodes started apart would be.
    await new Promise((resolve) => setTimeout(resolve, INTERVAL / 3));
    stops.push(start(second, 'two'));
    const began = Date.now();
    await new Promise((resolve) => setTimeout(resolve, INTERVAL * 12));
    for (const stop of stops) stop();
    const elapsed = Date.now() - began;
    expect(errors).toEqual([]);
    // Safety: never two runs claimed closer than the claim gap (90 % of the interval), whichever nodes ran them.
    runs.sort((a, b) => a.at - b.at);
    for (let i = 1; i < runs.length; i++) {
      expect(runs[i]!.at - runs[i - 1]!.at).toBeGreaterThanOrEqual(Math.floor(INTERVAL * 0.9));
    }
    expect(runs.length).toBeLessThanOrEqual(Math.floor(elapsed / (INTERVAL * 0.9)) + 2);
    // Liveness: the job did run, about once per interval (a loaded machine may delay ticks, never add runs).
    expect(runs.length).toBeGreaterThanOrEqual(3);
  });
});
