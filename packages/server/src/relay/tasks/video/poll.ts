import { formatQuota } from '@gateway/shared';
import { endTask, readPayer, type TaskMoney, taskRefund } from '../../../billing/task-settlement.js';
import type { CachedChannel } from '../../../cache/channel-cache.js';
import type { AppContext } from '../../../context.js';
import type { TaskChanges } from '../../../db/repos/tasks.js';
import type { TaskRow } from '../../../db/schema.js';
import { nowSeconds } from '../../../db/sql-helpers.js';
import type { VideoFunction } from '../../provider.js';
import { providerFor } from '../../providers/registry.js';
import type { VideoProgress } from '../../video-types.js';
import type { PollOutcome, PollSettings } from '../poll-batches.js';
import { callVendor } from '../vendor-call.js';
import { videoPlatforms } from './platforms.js';
import { familyStatus, type VideoSecrets, videoSecrets } from './task-record.js';

/** Unreadable or failed answers in a row after which a task is given up (failed and refunded). */
export const POLL_ERROR_LIMIT = 5;
/** Tasks asked about at the same time in one pass: vendors rate-limit their status APIs. */
const POLL_CONCURRENCY = 4;

interface Vendor {
  channel: CachedChannel;
  video: VideoFunction;
  provider: NonNullable<ReturnType<typeof providerFor>>;
}

function vendorOf(ctx: AppContext, row: TaskRow): Vendor | null {
  const channel = ctx.channelCache.get(row.channel_id);
  const provider = channel ? providerFor(channel.type) : undefined;
  const video = provider?.functions.video;
  return channel && provider && video ? { channel, video, provider } : null;
}

const productOf = (ratios: Record<string, number>) =>
  Object.values(ratios).reduce((product, ratio) => product * (Number.isFinite(ratio) && ratio > 0 ? ratio : 1), 1);

/** Fails the task and refunds what it paid, exactly once (only the update that ended it refunds). */
function failTask(ctx: AppContext, row: TaskRow, reason: string): Promise<boolean> {
  const now = nowSeconds();
  return endTask(
    ctx,
    (trx) =>
      ctx.repos.tasks.markFailed(trx, row.id, {
        fail_reason: reason.slice(0, 500),
        finish_time: Number(row.finish_time) || now,
        updated_at: now,
      }),
    taskRefund(ctx, readPayer(row.private_data, row.user_id), Number(row.quota), `异步任务执行失败 ${row.task_id}`, {
      key: 'task_refund_async',
      taskId: row.task_id,
    }),
  );
}

/**
 * What the finished task costs in all, when the end can say better than the submit: the vendor's token count for
 * a model priced per token, or another length than was paid for at the same price per second. Null: as charged.
 */
function owedAtEnd(secrets: Partial<VideoSecrets>, said: VideoProgress): number | null {
  if (secrets.quota_per_token && said.tokens) return Math.round(said.tokens * secrets.quota_per_token);
  const ratios = secrets.ratios;
  const made = said.seconds;
  if (!made || !ratios?.seconds || made === ratios.seconds || !secrets.unit_quota) return null;
  return Math.round(secrets.unit_quota * productOf({ ...ratios, seconds: made }));
}

/**
 * What finishing costs beyond the submit's charge: when the vendor made another length than was paid for, the
 * difference at the same price per second, charged or given back with the completion (exactly once).
 */
function finishingMoney(
  ctx: AppContext,
  row: TaskRow,
  secrets: Partial<VideoSecrets>,
  said: VideoProgress,
): TaskMoney | null {
  const owed = owedAtEnd(secrets, said);
  if (owed === null) return null;
  const delta = owed - Number(row.quota);
  if (delta === 0) return null;
  const made = said.seconds ?? secrets.ratios?.seconds ?? 0;
  const display = { quotaPerUnit: ctx.options.number('QuotaPerUnit'), displayInCurrency: true };
  const payer = readPayer(row.private_data, row.user_id);
  if (secrets.quota_per_token && said.tokens) {
    const amount = formatQuota(Math.abs(delta), display);
    const params = { task_id: row.task_id, tokens: said.tokens, quota: Math.abs(delta) };
    return {
      payer,
      delta,
      content: `视频任务 ${row.task_id} 实际用量 ${said.tokens} tokens，${delta > 0 ? '补扣' : '退还'} ${amount}`,
      fact: { key: delta > 0 ? 'task_video_tokens_extra' : 'task_video_tokens_refund', params },
    };
  }
  return delta > 0
    ? {
        payer,
        delta,
        content: `视频任务 ${row.task_id} 实际时长 ${made} 秒，补扣 ${formatQuota(delta, display)}`,
        fact: { key: 'task_video_extra', params: { task_id: row.task_id, seconds: made, quota: delta } },
      }
    : {
        payer,
        delta,
        content: `视频任务 ${row.task_id} 实际时长 ${made} 秒，退还 ${formatQuota(-delta, display)}`,
        fact: { key: 'task_video_refund', params: { task_id: row.task_id, seconds: made, quota: -delta } },
      };
}

/** Applies what the vendor said about a task; returns whether the row changed. */
async function apply(ctx: AppContext, row: TaskRow, vendor: Vendor, said: VideoProgress): Promise<boolean> {
  const now = nowSeconds();
  const secrets = videoSecrets(row);
  if (said.status === 'failed') return failTask(ctx, row, said.reason || 'FAILURE');
  if (said.status === 'completed') {
    if (!said.url && !vendor.video.content) {
      return failTask(ctx, row, 'the vendor reported success without a video');
    }
    const money = finishingMoney(ctx, row, secrets, said);
    const changes: TaskChanges = {
      status: 'SUCCESS',
      progress: '100%',
      start_time: Number(row.start_time) || now,
      finish_time: now,
      updated_at: now,
      private_data: JSON.stringify({ ...secrets, result_url: said.url, poll_errors: 0 }),
      ...(money ? { quota: Number(row.quota) + money.delta } : {}),
    };
    return endTask(ctx, (trx) => ctx.repos.tasks.advance(row.id, changes, trx), money);
  }
  const progress = `${Math.max(0, Math.min(99, Math.round(said.progress)))}%`;
  const status = familyStatus(said.status);
  if (status === row.status && progress === row.progress && !secrets.poll_errors) return false;
  return ctx.repos.tasks.advance(row.id, {
    status,
    progress,
    start_time: said.status === 'in_progress' ? Number(row.start_time) || now : Number(row.start_time),
    updated_at: now,
    ...(secrets.poll_errors ? { private_data: JSON.stringify({ ...secrets, poll_errors: 0 }) } : {}),
  });
}

/** A poll that could not be read: counted, and past the limit the task is given up and refunded. */
async function pollFailed(ctx: AppContext, row: TaskRow, why: string): Promise<boolean> {
  const secrets = videoSecrets(row);
  const errors = (secrets.poll_errors ?? 0) + 1;
  if (errors >= POLL_ERROR_LIMIT) return failTask(ctx, row, `the vendor's status could not be read: ${why}`);
  await ctx.repos.tasks.advance(row.id, {
    private_data: JSON.stringify({ ...secrets, poll_errors: errors }),
    updated_at: nowSeconds(),
  });
  return false;
}

/**
 * Asks the vendor about one unfinished task and stores the answer: progress, the end (completed with the charge
 * settled, or failed and refunded), or one more unreadable answer. The poller calls it for every unfinished task,
 * and a client's read calls it so progress shows without waiting for the next pass; the conditional updates keep
 * any number of concurrent calls to one outcome.
 */
export async function pollVideoTask(ctx: AppContext, row: TaskRow, timeoutMinutes?: number): Promise<boolean> {
  if (row.status === 'SUCCESS' || row.status === 'FAILURE') return false;
  if (timeoutMinutes !== undefined && Number(row.submit_time) < nowSeconds() - timeoutMinutes * 60) {
    return failTask(ctx, row, '任务超时');
  }
  const vendor = vendorOf(ctx, row);
  if (!vendor) return failTask(ctx, row, `获取渠道信息失败，渠道 ID：${row.channel_id}`);
  const secrets = videoSecrets(row);
  let said: VideoProgress;
  try {
    const call = vendor.video.poll(vendor.channel, secrets.upstream_task_id ?? '', secrets.upstream_model ?? '');
    const answer = await callVendor(vendor.provider, vendor.channel, call);
    if (answer.status < 200 || answer.status >= 300) {
      return pollFailed(ctx, row, vendor.provider.error(answer.status, answer.text).message);
    }
    said = vendor.video.readPoll(answer.json ?? answer.text, secrets.upstream_task_id ?? '');
  } catch (error) {
    return pollFailed(ctx, row, error instanceof Error ? error.message : String(error));
  }
  return apply(ctx, row, vendor, said);
}

/** One pass over unfinished video tasks, a few at a time; every task's outcome is settled exactly once. */
export async function pollVideoTasks(ctx: AppContext, settings: PollSettings): Promise<PollOutcome> {
  const rows = await ctx.repos.tasks.unfinished(videoPlatforms(), settings.queryLimit);
  const outcome: PollOutcome = { updated: 0, failed: 0 };
  let next = 0;
  const worker = async () => {
    while (next < rows.length) {
      const row = rows[next++]!;
      try {
        if (await pollVideoTask(ctx, row, settings.timeoutMinutes)) {
          const after = await ctx.repos.tasks.findById(row.id);
          if (after?.status === 'FAILURE') outcome.failed++;
          else outcome.updated++;
        }
      } catch {
        // The database hiccuped on this task: the next pass asks again.
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(POLL_CONCURRENCY, rows.length) }, worker));
  return outcome;
}
