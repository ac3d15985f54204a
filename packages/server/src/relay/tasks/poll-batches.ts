import type { CachedChannel } from '../../cache/channel-cache.js';
import type { AppContext } from '../../context.js';

export interface PollSettings {
  /** Most unfinished tasks looked at per pass (TASK_QUERY_LIMIT). */
  queryLimit: number;
  /** A task still unfinished after this long is failed and refunded (TASK_TIMEOUT_MINUTES). */
  timeoutMinutes: number;
}

export interface PollOutcome {
  updated: number;
  failed: number;
}

interface PollableRow {
  id: number;
  channel_id: number;
}

/**
 * The shape every task poll shares: rows past the timeout are failed, the rest are asked about in one batch per
 * channel; a channel that no longer exists fails its tasks, one that cannot be reached is asked again next pass.
 */
export async function pollInBatches<Row extends PollableRow>(
  ctx: AppContext,
  rows: Row[],
  plan: {
    timedOut(row: Row): boolean;
    fail(row: Row, reason: string): Promise<boolean>;
    /** Asks the channel about its rows; returns how many rows changed (or throws to try again later). */
    fetch(channel: CachedChannel, rows: Row[]): Promise<PollOutcome>;
  },
): Promise<PollOutcome> {
  const outcome: PollOutcome = { updated: 0, failed: 0 };
  const byChannel = new Map<number, Row[]>();
  for (const row of rows) {
    if (plan.timedOut(row)) {
      if (await plan.fail(row, '任务超时')) outcome.failed++;
      continue;
    }
    const list = byChannel.get(row.channel_id) ?? [];
    list.push(row);
    byChannel.set(row.channel_id, list);
  }
  for (const [channelId, list] of byChannel) {
    const channel = ctx.channelCache.get(channelId);
    if (!channel) {
      for (const row of list) if (await plan.fail(row, `获取渠道信息失败，渠道 ID：${channelId}`)) outcome.failed++;
      continue;
    }
    try {
      const result = await plan.fetch(channel, list);
      outcome.updated += result.updated;
      outcome.failed += result.failed;
    } catch {
      // Unreachable or garbled upstream: the tasks stay as they are until the next pass or the timeout.
    }
  }
  return outcome;
}

/** A string field of an upstream's task JSON, or '' when it is missing or not a string. */
export const str = (value: unknown) => (typeof value === 'string' ? value : '');
/** A number field of an upstream's task JSON, or 0 when it is missing or not a finite number. */
export const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/**
 * Applies one channel's answer about its rows: each reported task that matches a row we asked about either fails
 * (refunded once, by `fail`) or moves the row forward; tasks we did not ask about are ignored.
 */
export async function applyUpstreamTasks<Row, Task, Changes>(
  rows: Row[],
  tasks: Task[],
  step: {
    rowId(row: Row): string;
    taskId(task: Task): string;
    changes(row: Row, task: Task): Changes;
    /** Why the task failed, or null while it is still going (or done). */
    failure(task: Task, changes: Changes): string | null;
    fail(row: Row, reason: string, changes: Changes): Promise<boolean>;
    advance(row: Row, changes: Changes): Promise<boolean>;
  },
): Promise<PollOutcome> {
  const byId = new Map(rows.map((row) => [step.rowId(row), row]));
  const outcome: PollOutcome = { updated: 0, failed: 0 };
  for (const task of tasks) {
    const row = byId.get(step.taskId(task));
    if (!row) continue;
    const changes = step.changes(row, task);
    const reason = step.failure(task, changes);
    if (reason !== null) {
      if (await step.fail(row, reason, changes)) outcome.failed++;
    } else if (await step.advance(row, changes)) {
      outcome.updated++;
    }
  }
  return outcome;
}
