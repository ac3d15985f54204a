import type { AppContext } from '../context.js';
import { pollMidjourneyTasks } from '../relay/tasks/midjourney/poll.js';
import type { PollSettings } from '../relay/tasks/poll-batches.js';
import { pollSunoTasks } from '../relay/tasks/suno/poll.js';

const POLL_INTERVAL_MS = 15_000;

/** One pass of both pollers (drawing and Suno tasks). */
export async function pollTasksOnce(ctx: AppContext, settings: PollSettings) {
  const midjourney = await pollMidjourneyTasks(ctx, settings);
  const suno = await pollSunoTasks(ctx, settings);
  return { midjourney, suno };
}

/**
 * Every 15 s on the master node (when UPDATE_TASK is on), unfinished drawing and Suno tasks are brought up to date
 * from their upstreams. A pass never overlaps the previous one; refunds are exactly-once per task regardless.
 */
export function startTaskPoller(ctx: AppContext, settings = ctx.config.taskPoller): () => void {
  if (!settings.enabled || ctx.config.nodeType !== 'master') return () => {};
  let running = false;
  let stopped = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    pollTasksOnce(ctx, settings)
      .catch((error: unknown) => {
        // A pass cut short by shutdown (database closed under it) is not worth a line; it resumes next start.
        if (stopped) return;
        console.error(JSON.stringify({ level: 50, time: Date.now(), msg: 'task polling failed', err: String(error) }));
      })
      .finally(() => {
        running = false;
      });
  }, POLL_INTERVAL_MS);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
