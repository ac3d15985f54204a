import type { AppContext } from '../../context.js';
import type { ProviderFunctions } from '../provider.js';
import { providerFor } from '../providers/registry.js';
import { callVendor } from './vendor-call.js';

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

/** How one kind of task (drawings, Suno songs) is stored: the rest of a batch poll is the same for every kind. */
export interface BatchPollPlan<Row extends PollableRow, Changes> {
  /** The provider function whose batch poll asks about this kind of task. */
  kind: 'midjourney' | 'suno';
  timedOut(row: Row): boolean;
  /** The vendor's id of the row's task. */
  upstreamId(row: Row): string;
  /** The row's new columns from the vendor's view of its task. */
  changes(row: Row, task: Record<string, unknown>): Changes;
  /** Why the task failed, or null while it is still going (or done). */
  failure(task: Record<string, unknown>, changes: Changes): string | null;
  /** Fails and refunds the row once; true when this call ended it. */
  fail(row: Row, reason: string, changes?: Changes): Promise<boolean>;
  /** Moves an unfinished row forward; true when it changed. */
  advance(row: Row, changes: Changes): Promise<boolean>;
}

/**
 * One pass over unfinished tasks of a kind: rows past the timeout are failed, the rest are asked about in batches
 * per channel (the provider's batch poll: its size, call and answer); each reported task either fails (refunded
 * once) or moves its row forward; tasks not asked about are ignored. A channel that no longer exists fails its
 * tasks; one that cannot be reached, or answers garbage, is asked again next pass (until the timeout).
 */
export async function pollInBatches<Row extends PollableRow, Changes>(
  ctx: AppContext,
  rows: Row[],
  plan: BatchPollPlan<Row, Changes>,
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
    const provider = channel ? providerFor(channel.type) : undefined;
    const poll = (provider?.functions as ProviderFunctions | undefined)?.[plan.kind]?.poll;
    if (!channel || !provider || !poll) {
      for (const row of list) if (await plan.fail(row, `获取渠道信息失败，渠道 ID：${channelId}`)) outcome.failed++;
      continue;
    }
    for (let start = 0; start < list.length; start += poll.size) {
      const batch = list.slice(start, start + poll.size);
      let reported: Array<{ id: string; task: Record<string, unknown> }>;
      try {
        const answer = await callVendor(
          provider,
          channel,
          poll.call(
            channel,
            batch.map((row) => plan.upstreamId(row)),
          ),
        );
        if (answer.status !== 200) continue;
        reported = poll.read(answer.json);
      } catch {
        // Unreachable or garbled upstream: the tasks stay as they are until the next pass or the timeout.
        continue;
      }
      const byId = new Map(batch.map((row) => [plan.upstreamId(row), row]));
      for (const { id, task } of reported) {
        const row = byId.get(id);
        if (!row) continue;
        const changes = plan.changes(row, task);
        const reason = plan.failure(task, changes);
        if (reason !== null) {
          if (await plan.fail(row, reason, changes)) outcome.failed++;
        } else if (await plan.advance(row, changes)) {
          outcome.updated++;
        }
      }
    }
  }
  return outcome;
}

/** A string field of an upstream's task JSON, or '' when it is missing or not a string. */
export const str = (value: unknown) => (typeof value === 'string' ? value : '');
/** A number field of an upstream's task JSON, or 0 when it is missing or not a finite number. */
export const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
