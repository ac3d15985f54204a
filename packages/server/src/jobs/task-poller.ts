import type { AppContext } from '../context.js';
import { backgroundError } from '../lib/background.js';
import { pollMidjourneyTasks } from '../relay/tasks/midjourney/poll.js';
import type { PollSettings } from '../relay/tasks/poll-batches.js';
import { pollSunoTasks } from '../relay/tasks/suno/poll.js';
import { pollVideoTasks } from '../relay/tasks/video/poll.js';
import { everyOnceAcrossNodes } from './leased-job.js';

const POLL_INTERVAL_MS = 15_000;

/** One pass over every kind of unfinished task (drawings, Suno, videos). */
export async function pollTasksOnce(ctx: AppContext, settings: PollSettings) {
  const midjourney = await pollMidjourneyTasks(ctx, settings);
  const suno = await pollSunoTasks(ctx, settings);
  const video = await pollVideoTasks(ctx, settings);
  return { midjourney, suno, video };
}

/**
 * Every 15 s on one master node (when UPDATE_TASK is on; the nodes share the runs through a lease, leased-job.ts), unfinished drawing, Suno and video tasks are brought up to date
 * from their upstreams. A pass never overlaps the previous one; refunds are exactly-once per task regardless.
 */
export function startTaskPoller(ctx: AppContext, settings = ctx.config.taskPoller): () => void {
  if (!settings.enabled || ctx.config.nodeType !== 'master') return () => {};
  let stopped = false;
  const stop = everyOnceAcrossNodes(
    ctx.repos.jobLeases,
    'task-poller',
    POLL_INTERVAL_MS,
    () => pollTasksOnce(ctx, settings),
    (error) => {
      // A pass cut short by shutdown (database closed under it) is not worth a line; it resumes next start.
      if (!stopped) backgroundError('task polling failed', error);
    },
  );
  return () => {
    stopped = true;
    stop();
  };
}
