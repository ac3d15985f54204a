import { type AdaptorKind, ChannelStatus, channelType, type Language } from '@gateway/shared';
import type { CachedChannel } from '../../cache/channel-cache.js';
import type { AppContext } from '../../context.js';
import type { RelayCaller } from '../auth.js';
import { shouldDisableChannel } from '../auto-disable.js';
import { RelayError } from '../errors.js';
import { withHeaderOverride } from '../overrides/apply.js';
import { isRetriableStatus } from '../retry.js';
import { pickChannel } from '../select.js';
import { sendUpstream } from '../send.js';

export const TASK_SUBMIT_TIMEOUT_MS = 120_000;
const FETCH_TIMEOUT_MS = 30_000;

export interface TaskUpstreamAnswer {
  status: number;
  text: string;
  json: unknown;
}

export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}

/**
 * One JSON call to a task upstream on `channel`; the body is read whole (task APIs answer small JSON documents).
 * The channel's header override applies as on every relay call (a proxy in front of the task API may want its
 * own header); param override does not: it is written for model requests, and task bodies are another API.
 */
export async function callTaskUpstream(
  channel: CachedChannel,
  method: 'GET' | 'POST',
  url: string,
  headers: Record<string, string>,
  body: unknown,
  timeoutMs = FETCH_TIMEOUT_MS,
): Promise<TaskUpstreamAnswer> {
  const response = await sendUpstream(
    {
      method,
      url,
      headers: withHeaderOverride(
        {
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        channel,
      ),
      body: body === undefined ? undefined : JSON.stringify(body),
    },
    { timeoutMs },
  );
  const text = await response.body.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: response.statusCode, text, json };
}

export function servesKind(channel: CachedChannel, kinds: readonly AdaptorKind[]): boolean {
  const adaptor = channelType(channel.type)?.adaptor;
  return adaptor !== undefined && kinds.includes(adaptor);
}

/** A refused channel key takes the channel out of rotation, as on the other relay routes (when both switches allow). */
function maybeDisable(ctx: AppContext, channel: CachedChannel, answer: TaskUpstreamAnswer): void {
  if (answer.status < 400 || !ctx.options.bool('AutomaticDisableChannelEnabled') || !channel.autoBan) return;
  const body = (answer.json ?? {}) as { description?: unknown; message?: unknown };
  const message = String(body.description ?? body.message ?? answer.text.slice(0, 300));
  const error = { status: answer.status, message, type: '', code: null };
  if (!shouldDisableChannel(error, channel.type, ctx.options.get('AutomaticDisableKeywords'))) return;
  void ctx.channelWriter.setStatus(channel.id, 3, message).catch(() => {});
}

export interface SubmitTarget {
  /** Only this channel may serve (a follow-up on an earlier task, or an admin's `sk-KEY-<id>`). */
  fixedChannelId: number | null;
  model: string;
  kinds: readonly AdaptorKind[];
}

/**
 * Sends a submit to a channel that serves the model, trying another channel (up to RetryTimes, never one that
 * already failed) when the upstream cannot be reached or answers 429/5xx. `send` builds and performs the call for
 * a channel. A refusal with a 2xx/4xx answer is the upstream's verdict on the task and is returned as is.
 */
export async function submitWithRetry(
  ctx: AppContext,
  caller: RelayCaller,
  target: SubmitTarget,
  lang: Language,
  send: (channel: CachedChannel) => Promise<TaskUpstreamAnswer>,
): Promise<{ channel: CachedChannel; answer: TaskUpstreamAnswer }> {
  const fixed = target.fixedChannelId ?? caller.pinnedChannelId;
  const retries = fixed !== null ? 0 : Math.max(0, ctx.options.number('RetryTimes'));
  const failed = new Set<number>();
  let lastError: RelayError | null = null;
  // When every try ended "busy", the caller gets the last upstream's own answer (its status and reason).
  let lastBusy: { channel: CachedChannel; answer: TaskUpstreamAnswer } | null = null;
  for (let attempt = 0; attempt <= retries; attempt++) {
    let channel: CachedChannel | undefined;
    if (fixed !== null) {
      channel = ctx.channelCache.get(fixed);
      if (!channel || channel.status !== ChannelStatus.Enabled) {
        throw RelayError.of(400, lang, 'task_channel_disabled', undefined, 'channel_disabled');
      }
    } else {
      const candidates = ctx.channelCache
        .candidates(caller.group, target.model)
        .filter((candidate) => servesKind(candidate, target.kinds));
      channel = pickChannel(candidates, attempt, failed);
    }
    if (!channel) break;
    if (!servesKind(channel, target.kinds)) {
      throw RelayError.of(400, lang, 'relay_channel_unsupported', undefined, 'channel_unsupported');
    }
    try {
      const answer = await send(channel);
      maybeDisable(ctx, channel, answer);
      // Only "busy" and server failures are worth another channel; anything else is this task's answer.
      const busy = answer.status === 429 || answer.status >= 500;
      if (!busy || !isRetriableStatus(answer.status)) return { channel, answer };
      lastBusy = { channel, answer };
      lastError = null;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      lastError = RelayError.of(502, lang, 'relay_upstream_unreachable', { reason }, 'upstream_unreachable');
      lastBusy = null;
    }
    failed.add(channel.id);
  }
  if (lastBusy) return lastBusy;
  throw (
    lastError ??
    RelayError.of(503, lang, 'relay_no_channel', { group: caller.group, model: target.model }, 'model_not_found')
  );
}
