import { endTask, readPayer, taskRefund } from '../../../billing/task-settlement.js';
import type { AppContext } from '../../../context.js';
import type { DrawingChanges } from '../../../db/repos/midjourneys.js';
import type { MidjourneyRow } from '../../../db/schema.js';
import { num, type PollOutcome, type PollSettings, pollInBatches, str } from '../poll-batches.js';

/** A task as midjourney-proxy reports it from `list-by-condition`. */
interface UpstreamTask {
  id?: unknown;
  action?: unknown;
  status?: unknown;
  progress?: unknown;
  imageUrl?: unknown;
  videoUrl?: unknown;
  videoUrls?: unknown;
  prompt?: unknown;
  promptEn?: unknown;
  description?: unknown;
  failReason?: unknown;
  startTime?: unknown;
  finishTime?: unknown;
  buttons?: unknown;
  properties?: unknown;
}

/** The row's new columns from the upstream's view of the task; the payer in properties is kept. */
function changesFrom(row: MidjourneyRow, task: UpstreamTask): DrawingChanges {
  let properties: Record<string, unknown> = {};
  try {
    properties = row.properties ? (JSON.parse(row.properties) as Record<string, unknown>) : {};
  } catch {
    properties = {};
  }
  const upstreamProperties =
    task.properties && typeof task.properties === 'object' && !Array.isArray(task.properties) ? task.properties : {};
  return {
    status: str(task.status) || row.status,
    progress: str(task.progress) || row.progress,
    image_url: str(task.imageUrl) || row.image_url,
    video_url: str(task.videoUrl) || row.video_url,
    video_urls: Array.isArray(task.videoUrls) ? JSON.stringify(task.videoUrls) : row.video_urls,
    prompt_en: str(task.promptEn) || row.prompt_en,
    description: str(task.description) || row.description,
    fail_reason: str(task.failReason) || row.fail_reason,
    start_time: num(task.startTime) || row.start_time,
    finish_time: num(task.finishTime) || row.finish_time,
    buttons: Array.isArray(task.buttons) ? JSON.stringify(task.buttons) : row.buttons,
    properties: JSON.stringify({ ...properties, ...upstreamProperties, payer: properties.payer }),
  };
}

/** FAILURE and CANCEL end a task unpaid, and so does a failure reason on a task that never reached 100 %. */
function isFailed(task: UpstreamTask): boolean {
  const status = str(task.status);
  if (status === 'FAILURE' || status === 'CANCEL') return true;
  return str(task.failReason) !== '' && str(task.progress) !== '100%';
}

/**
 * One pass over unfinished drawing tasks: ask each channel's midjourney-proxy about its tasks (the provider's batch
 * poll, `POST /mj/task/list-by-condition`), store what changed, and refund tasks that failed, timed out or lost their
 * channel, each exactly once.
 */
export async function pollMidjourneyTasks(ctx: AppContext, settings: PollSettings): Promise<PollOutcome> {
  const store = ctx.repos.midjourneys;
  const rows = await store.unfinished(settings.queryLimit);
  const deadline = Date.now() - settings.timeoutMinutes * 60_000;

  const fail = (row: MidjourneyRow, reason: string, changes: DrawingChanges = {}) =>
    endTask(
      ctx,
      (trx) =>
        store.markFailed(trx, row.id, {
          ...changes,
          fail_reason: reason,
          finish_time: Number(row.finish_time) || Date.now(),
        }),
      taskRefund(ctx, readPayer(row.properties, row.user_id), Number(row.quota), `构图失败 ${row.mj_id}`, {
        key: 'task_refund_drawing',
        taskId: row.mj_id ?? '',
      }),
    );

  return pollInBatches(ctx, rows, {
    kind: 'midjourney',
    timedOut: (row) => Number(row.submit_time) < deadline,
    upstreamId: (row) => row.mj_id,
    changes: (row, task) => changesFrom(row, task as UpstreamTask),
    failure: (task) => (isFailed(task as UpstreamTask) ? str(task.failReason) || str(task.status) : null),
    fail: (row, reason, changes) => fail(row, reason, changes),
    advance: (row, changes) => store.advance(row.id, changes),
  });
}
