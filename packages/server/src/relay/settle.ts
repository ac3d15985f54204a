import { LogType, perCallQuota, tokenQuota } from '@gateway/shared';
import { maybeWarnLowQuota } from '../billing/quota-warning.js';
import type { AppContext } from '../context.js';
import type { NewLog } from '../db/schema.js';
import { nowSeconds } from '../db/sql-helpers.js';
import type { RelayCaller } from './admission/caller.js';
import { type FallbackTrail, fallbackFacts } from './admission/fallback.js';
import type { TaskCharge } from './endpoint.js';
import type { ModelPricing } from './pricing.js';
import { billingFacts } from './reserve.js';
import type { Usage } from './types.js';

export interface Settlement {
  caller: RelayCaller;
  reserved: number;
  pricing: ModelPricing;
  groupRatio: number;
  callCount: number;
  usage: Usage;
  /** True when the tokens were counted here because the upstream reported none. */
  countedLocally: boolean;
  channel: { id: number; name: string } | null;
  model: string;
  upstreamModel: string;
  isStream: boolean;
  startedAt: number;
  firstTokenMs: number | null;
  triedChannels: number[];
  requestId: string;
  /** Why a stream ended early (client left, upstream broke), for the log. */
  interruption?: string;
  /** An accepted asynchronous task: it costs its reservation (a fixed price per action) or the vendor's terms. */
  task?: TaskCharge;
  /** A fallback model served: `model` is the one that served, the trail says what was asked for. */
  fallback?: FallbackTrail;
  /** A cost the caller priced itself (a realtime response's audio), with the facts the log shows of it. */
  priced?: { quota: number; facts: Record<string, unknown> };
  /** The subscription the reservation came from (null or absent: the wallet). */
  subscriptionId?: number | null;
}

/** The quota a finished (or interrupted) request costs. */
export function quotaFor(
  settlement: Pick<Settlement, 'pricing' | 'groupRatio' | 'usage' | 'callCount'>,
  quotaPerUnit: number,
): number {
  const { pricing, groupRatio, usage } = settlement;
  if (pricing.kind === 'call') return perCallQuota(pricing.price, groupRatio, quotaPerUnit, settlement.callCount);
  return tokenQuota(
    {
      promptTokens: usage.prompt_tokens,
      completionTokens: usage.completion_tokens,
      cachedTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
      cacheCreationTokens: Number(usage.cache_creation_tokens ?? 0),
    },
    {
      modelRatio: pricing.modelRatio,
      completionRatio: pricing.completionRatio,
      cacheRatio: pricing.cacheRatio,
      cacheCreationRatio: pricing.cacheCreationRatio,
      groupRatio,
    },
  );
}

/** Moves the reservation to the real cost on user, token and channel alike, and queues the consume log. */
export function settle(ctx: AppContext, s: Settlement): number {
  const quota =
    s.priced?.quota ?? (s.task ? (s.task.quota ?? s.reserved) : quotaFor(s, ctx.options.number('QuotaPerUnit')));
  const { token, user } = s.caller;
  // A subscription paid: the wallet does not move, and there is nothing to warn about.
  const before = ctx.ledger.available('user', user.id) + (s.subscriptionId == null ? s.reserved : 0);
  const log = ctx.options.bool('LogConsumeEnabled') ? consumeLog(s, quota) : null;
  // The charge and its log row travel together to the database (one transaction), so they agree after a crash.
  // The playground's stand-in token (id 0) has no row: only the user is billed.
  ctx.ledger.settle(
    user.id,
    token.id || null,
    s.reserved,
    quota,
    s.channel?.id ?? null,
    token.unlimited_quota === 1,
    log,
    s.subscriptionId ?? null,
  );
  maybeWarnLowQuota(ctx, user, before, ctx.ledger.available('user', user.id));
  ctx.quotaExporter.record(user.id, user.username, s.model, quota, s.usage.prompt_tokens + s.usage.completion_tokens);
  ctx.metrics.relay.billed(s.model, s.usage.prompt_tokens, s.usage.completion_tokens, quota);
  return quota;
}

/** The consume log row of a settled request. */
function consumeLog(s: Settlement, quota: number): NewLog {
  const { token, user } = s.caller;
  const pricing = s.pricing;
  // Built key by key in the log's order: object spreads here cloned a fresh object per part on every request.
  const other: Record<string, unknown> = { group_ratio: s.groupRatio };
  if (pricing.kind === 'tokens') {
    other.model_ratio = pricing.modelRatio;
    other.completion_ratio = pricing.completionRatio;
    other.cache_ratio = pricing.cacheRatio;
    other.cache_tokens = s.usage.prompt_tokens_details?.cached_tokens ?? 0;
    other.cache_creation_tokens = Number(s.usage.cache_creation_tokens ?? 0);
    other.model_price = -1;
  } else {
    other.model_price = pricing.price;
  }
  other.frt = s.firstTokenMs ?? -1;
  other.is_model_mapped = s.upstreamModel !== s.model;
  other.upstream_model_name = s.upstreamModel;
  other.admin_info = { use_channel: s.triedChannels.map(String) };
  if (s.countedLocally) other.local_count = true;
  if (s.interruption) other.stream_status = s.interruption;
  if (s.task) {
    other.task_id = s.task.taskId;
    other.action = s.task.action;
    // The family's name for what multiplied the price (a video's seconds and size).
    if (s.task.ratios) other.other_ratios = s.task.ratios;
  }
  if (s.fallback) Object.assign(other, fallbackFacts(s.fallback));
  if (s.priced) Object.assign(other, s.priced.facts);
  Object.assign(other, billingFacts(s.subscriptionId ?? null));
  const price =
    pricing.kind === 'tokens'
      ? `模型倍率 ${pricing.modelRatio}，补全倍率 ${pricing.completionRatio}，分组倍率 ${s.groupRatio}`
      : `模型价格 ${pricing.price}，分组倍率 ${s.groupRatio}`;
  const content = s.task ? `${price}，操作 ${s.task.action}，任务 ID ${s.task.taskId}` : price;
  return {
    user_id: user.id,
    created_at: nowSeconds(),
    type: LogType.Consume,
    content,
    username: user.username,
    token_name: token.name,
    token_id: token.id,
    model_name: s.model,
    quota,
    prompt_tokens: s.usage.prompt_tokens,
    completion_tokens: s.usage.completion_tokens,
    use_time: Math.round((performance.now() - s.startedAt) / 1000),
    is_stream: s.isStream ? 1 : 0,
    channel_id: s.channel?.id ?? 0,
    channel_name: s.channel?.name ?? '',
    group: s.caller.group,
    request_id: s.requestId,
    other: JSON.stringify(other),
  };
}
