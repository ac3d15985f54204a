import { type Language, LogType, resolveModelMapping } from '@gateway/shared';
import type { FastifyReply } from 'fastify';
import type { CachedChannel } from '../cache/channel-cache.js';
import type { AppContext } from '../context.js';
import { nowSeconds } from '../db/sql-helpers.js';
import { admitModelRequest } from '../services/rate-limit/model-request-limit.js';
import type { RelayCaller } from './auth.js';
import { shouldDisableChannel } from './auto-disable.js';
import { Cancellation } from './cancellation.js';
import { RelayError, redactChannelKeys } from './errors.js';
import { applyOverrides } from './overrides/apply.js';
import { adapterFor } from './providers/registry.js';
import { type Billing, refund } from './reserve.js';
import { isRetriableStatus, mapStatus } from './retry.js';
import { pickChannel } from './select.js';
import { sendUpstream, type UpstreamResponse } from './send.js';
import type { ProviderAdapter, UpstreamCall, UpstreamError } from './types.js';

const UPSTREAM_TIMEOUT_MS = 300_000;

export type { UpstreamResponse };

/** One try on one channel. */
export interface Attempt {
  channel: CachedChannel;
  adapter: ProviderAdapter;
  upstreamModel: string;
  tried: number[];
  /** Aborted when the client goes away. */
  cancellation: Cancellation;
  startedAt: number;
  requestId: string;
  /** The plan calls this once it has settled the bill; otherwise the pipeline refunds the reservation. */
  markSettled(): void;
}

/** What an endpoint contributes to the shared pipeline. */
export interface RelayPlan {
  /** The upstream call for this channel, or null when its provider cannot serve this endpoint. */
  call(channel: CachedChannel, adapter: ProviderAdapter, upstreamModel: string): UpstreamCall | null;
  /** Answers the client from a 2xx upstream response and settles the bill. */
  succeed(attempt: Attempt, response: UpstreamResponse, reply: FastifyReply): Promise<void>;
}

function chooseChannel(ctx: AppContext, caller: RelayCaller, model: string, attempt: number, failed: Set<number>) {
  if (caller.pinnedChannelId !== null) {
    const pinned = ctx.channelCache.get(caller.pinnedChannelId);
    return pinned && pinned.status === 1 && !failed.has(pinned.id) ? pinned : undefined;
  }
  return pickChannel(ctx.channelCache.candidates(caller.group, model), attempt, failed);
}

/** Takes the channel out of rotation when the error says its key or account is unusable (and both switches allow). */
function maybeDisable(ctx: AppContext, channel: CachedChannel, error: UpstreamError): void {
  if (!ctx.options.bool('AutomaticDisableChannelEnabled') || !channel.autoBan) return;
  if (!shouldDisableChannel(error, channel.type, ctx.options.get('AutomaticDisableKeywords'))) return;
  void ctx.channelWriter.setStatus(channel.id, 3, error.message).catch(() => {});
}

/** A type-5 log row for a request that no channel could answer, so admins see failures next to usage. */
function logFailure(
  ctx: AppContext,
  billing: Billing,
  error: RelayError,
  tried: number[],
  meta: { startedAt: number; requestId: string; isStream?: boolean },
): void {
  const { caller } = billing;
  const channel = tried.length ? ctx.channelCache.get(tried.at(-1)!) : undefined;
  ctx.logWriter.append({
    user_id: caller.user.id,
    created_at: nowSeconds(),
    type: LogType.Error,
    content: error.message,
    username: caller.user.username,
    token_name: caller.token.name,
    token_id: caller.token.id,
    model_name: billing.model,
    use_time: Math.round((performance.now() - meta.startedAt) / 1000),
    is_stream: meta.isStream ? 1 : 0,
    channel_id: channel?.id ?? 0,
    channel_name: channel?.name ?? '',
    group: caller.group,
    request_id: meta.requestId,
    other: JSON.stringify({
      status_code: error.status,
      error_code: error.code,
      admin_info: { use_channel: tried.map(String) },
    }),
  });
}

const keyTurns = new WeakMap<CachedChannel, number>();

/** A channel with several keys (one per line) takes them in turn, spreading load and rate limits across them. */
function withNextKey(channel: CachedChannel): CachedChannel {
  if (channel.keys.length < 2) return channel;
  const turn = keyTurns.get(channel) ?? 0;
  keyTurns.set(channel, turn + 1);
  return { ...channel, key: channel.keys[turn % channel.keys.length]! };
}

export function upstreamModelFor(channel: CachedChannel, model: string): string {
  if (!channel.modelMapping) return model;
  const mapped = resolveModelMapping(channel.modelMapping as Record<string, string>, model);
  return 'model' in mapped ? mapped.model : model;
}

/**
 * Picks a channel, sends, and on a retriable failure tries another channel (never one that already failed in
 * this request), up to RetryTimes. The reservation is refunded unless the plan's success path settled it.
 */
export async function runRelay(
  ctx: AppContext,
  reply: FastifyReply,
  billing: Billing,
  plan: RelayPlan,
  meta: {
    lang: Language;
    startedAt: number;
    requestId: string;
    isStream?: boolean;
    /** The client's JSON body as received, sent unchanged to channels in pass-through mode. */
    rawBody?: unknown;
  },
): Promise<FastifyReply> {
  const { caller } = billing;
  let settled = false;
  try {
    // The model request rate limit (awaited only when on); a refusal is refunded by the finally below.
    const limited = admitModelRequest(ctx.modelLimiter, caller, meta.lang);
    if (limited) await limited;
    const failed = new Set<number>();
    const tried: number[] = [];
    const retries = caller.pinnedChannelId !== null ? 0 : Math.max(0, ctx.options.number('RetryTimes'));
    let lastError: RelayError | null = null;
    let rawText: string | undefined;
    for (let attemptIndex = 0; attemptIndex <= retries; attemptIndex++) {
      const channel = chooseChannel(ctx, caller, billing.model, attemptIndex, failed);
      if (!channel) break;
      tried.push(channel.id);
      const adapter = adapterFor(channel.type);
      const upstreamModel = upstreamModelFor(channel, billing.model);
      const keyed = withNextKey(channel);
      const planned = adapter ? plan.call(keyed, adapter, upstreamModel) : null;
      if (!adapter || !planned) {
        lastError = RelayError.of(400, meta.lang, 'relay_channel_unsupported', undefined, 'channel_unsupported');
        failed.add(channel.id);
        continue;
      }
      const passThrough =
        meta.rawBody !== undefined &&
        (channel.setting?.pass_through_body_enabled === true ||
          ctx.options.bool('global.pass_through_request_enabled'));
      if (passThrough) rawText ??= JSON.stringify(meta.rawBody);
      const overridden = applyOverrides(
        planned,
        keyed,
        { original_model: billing.model, upstream_model: upstreamModel },
        passThrough ? rawText : undefined,
      );
      if (!('call' in overridden)) {
        failed.add(channel.id);
        if ('invalid' in overridden) {
          // The channel's own configuration is broken: another channel may still serve (family: "channel:" errors).
          lastError = new RelayError(500, overridden.invalid, 'channel_error', 'channel:param_override_invalid');
          continue;
        }
        const { status, message, code, skipRetry } = overridden.refusal;
        lastError = new RelayError(status, message, 'invalid_request_error', code);
        if (skipRetry) break;
        continue;
      }
      const { call } = overridden;
      const cancellation = new Cancellation();
      const onClose = () => {
        if (!reply.raw.writableFinished) cancellation.abort();
      };
      reply.raw.on('close', onClose);
      try {
        let response: UpstreamResponse;
        try {
          response = await sendUpstream(call, { timeoutMs: UPSTREAM_TIMEOUT_MS, cancellation });
        } catch (error) {
          // The client left before the upstream answered: nothing was produced, nothing is billed.
          if (cancellation.aborted) return reply;
          const reason = redactChannelKeys(error instanceof Error ? error.message : String(error), keyed);
          const message = RelayError.of(502, meta.lang, 'relay_upstream_unreachable', { reason }).message;
          lastError = new RelayError(502, message, 'upstream_error', 'upstream_unreachable');
          failed.add(channel.id);
          continue;
        }
        if (response.statusCode < 200 || response.statusCode >= 300) {
          const text = await response.body.text().catch(() => '');
          const upstream = adapter.error(response.statusCode, text);
          const status = mapStatus(upstream.status, channel.statusCodeMapping as Record<string, string> | null);
          maybeDisable(ctx, channel, { ...upstream, status });
          // The channel's own credentials were refused: that is the gateway's problem, not the caller's key, so the
          // caller gets a server error instead of a 401/403 that would read as "your key is wrong".
          const clientStatus = status === 401 || status === 403 ? 500 : status;
          const message = redactChannelKeys(upstream.message, keyed);
          lastError = new RelayError(clientStatus, message, upstream.type || 'upstream_error', upstream.code);
          failed.add(channel.id);
          if (!isRetriableStatus(status)) break;
          continue;
        }
        const markSettled = () => {
          settled = true;
        };
        const attempt: Attempt = { channel, adapter, upstreamModel, tried, cancellation, ...meta, markSettled };
        // From here the answer belongs to this channel: no retry once the client may have seen bytes.
        await plan.succeed(attempt, response, reply);
        return reply;
      } finally {
        reply.raw.off('close', onClose);
      }
    }
    const error =
      lastError ??
      RelayError.of(
        503,
        meta.lang,
        'relay_no_channel',
        { group: caller.group, model: billing.model },
        'model_not_found',
      );
    if (ctx.config.errorLogEnabled) logFailure(ctx, billing, error, tried, meta);
    throw error;
  } finally {
    if (!settled) refund(ctx, billing);
  }
}
