import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { JobLeasesRepo } from '../db/repos/job-leases.js';
import { everyWithoutOverlap } from '../lib/background.js';

/** This process among the deployment's nodes, as written into a lease (host, pid and a random part for restarts). */
export const NODE_ID = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

/**
 * A run may be claimed a little before a full interval has passed since the last one: timers on different nodes drift,
 * and a node whose tick comes just short of the interval would otherwise skip a whole interval.
 */
const CLAIM_SLACK = 0.9;

/**
 * Runs `job` every `ms` on this node's timer, but only when this node claims the run in the database first: across
 * every node of a deployment the job runs once per interval, on whichever node's tick comes first. A node that stops
 * leaves the next run to another. Returns the function that stops the timer.
 */
export function everyOnceAcrossNodes(
  leases: JobLeasesRepo,
  name: string,
  ms: number,
  /** Gets the time its run was claimed at (unix ms). */
  job: (claimedAt: number) => Promise<unknown>,
  onError: (error: unknown) => void,
  holder = NODE_ID,
): () => void {
  return everyWithoutOverlap(
    ms,
    async () => {
      const now = Date.now();
      if (await leases.claim(name, holder, now, Math.floor(ms * CLAIM_SLACK))) await job(now);
    },
    onError,
  );
}
