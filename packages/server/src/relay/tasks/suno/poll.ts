import { endTask, readPayer, taskRefund } from '../../../billing/task-settlement.js';
import type { AppContext } from '../../../context.js';
import type { TaskChanges } from '../../../db/repos/tasks.js';
import type { TaskRow } from '../../../db/schema.js';
import { nowSeconds } from '../../../db/sql-helpers.js';
import { num, type PollOutcome, type PollSettings, pollInBatches, str } from '../poll-batches.js';
import { SUNO_PLATFORM } from './submit.js';

/** A task as the Suno API's `POST /suno/fetch` reports it. */
interface UpstreamTask {
  task_id?: unknown;
  status?: unknown;
  fail_reason?: unknown;
  start_time?: unknown;
  finish_time?: unknown;
  progress?: unknown;
  data?: unknown;
}

function changesFrom(row: TaskRow, task: UpstreamTask): TaskChanges {
  const status = str(task.status) || row.status;
  return {
    status,
    progress: str(task.progress) || (status === 'SUCCESS' ? '100%' : row.progress),
    fail_reason: str(task.fail_reason) || row.fail_reason,
    start_time: num(task.start_time) || row.start_time,
    finish_time: num(task.finish_time) || (status === 'SUCCESS' ? nowSeconds() : row.finish_time),
    data: task.data === undefined ? row.data : JSON.stringify(task.data),
    updated_at: nowSeconds(),
  };
}

/**
 * One pass over unfinished Suno tasks: the Suno provider's batch poll per channel, store what changed, and refund
 * tasks that failed, timed out or lost their channel, each exactly once.
 */
export async function pollSunoTasks(ctx: AppContext, settings: PollSettings): Promise<PollOutcome> {
  const store = ctx.repos.tasks;
  const rows = await store.unfinished([SUNO_PLATFORM], settings.queryLimit);
  const deadline = nowSeconds() - settings.timeoutMinutes * 60;

  const fail = (row: TaskRow, reason: string, changes: TaskChanges = {}) =>
    endTask(
      ctx,
      (trx) =>
        store.markFailed(trx, row.id, {
          ...changes,
          fail_reason: reason,
          finish_time: Number(row.finish_time) || nowSeconds(),
          updated_at: nowSeconds(),
        }),
      taskRefund(ctx, readPayer(row.private_data, row.user_id), Number(row.quota), `异步任务执行失败 ${row.task_id}`, {
        key: 'task_refund_async',
        taskId: row.task_id,
      }),
    );

  return pollInBatches(ctx, rows, {
    kind: 'suno',
    timedOut: (row) => Number(row.submit_time) < deadline,
    upstreamId: (row) => row.task_id,
    changes: (row, task) => changesFrom(row, task as UpstreamTask),
    failure: (task, changes) => (changes.status === 'FAILURE' ? str(task.fail_reason) || 'FAILURE' : null),
    fail: (row, reason, changes) => fail(row, reason, changes),
    advance: (row, changes) => store.advance(row.id, changes),
  });
}
