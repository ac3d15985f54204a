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
