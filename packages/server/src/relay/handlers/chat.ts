import { once } from 'node:events';
import { perCallQuota, preConsumeQuota, resolveModelMapping } from '@gateway/shared';
import { createParser } from 'eventsource-parser';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CachedChannel } from '../../cache/channel-cache.js';
import type { AppContext } from '../../context.js';
import { languageOf } from '../../http/envelope.js';
import { authenticateRelay, type RelayCaller } from '../auth.js';
import { shouldDisableChannel } from '../auto-disable.js';
import { RelayError } from '../errors.js';
import { groupRatio, type ModelPricing, modelPricing } from '../pricing.js';
import { adapterFor } from '../providers/registry.js';
import { isRetriableStatus, mapStatus } from '../retry.js';
import { pickChannel } from '../select.js';
import { sendUpstream } from '../send.js';
import { settle } from '../settle.js';
import { newStreamState } from '../stream/stream-state.js';
import type { ChatRequest, ProviderAdapter, Usage } from '../types.js';
import { countPromptTokens, countTextTokens, estimatePromptTokens, maxOutputTokens } from '../usage.js';
import { userSetting } from '../user-setting.js';

const UPSTREAM_TIMEOUT_MS = 300_000;

interface Billing {
  caller: RelayCaller;
  pricing: ModelPricing;
  groupRatio: number;
  reserved: number;
}

function validate(body: unknown, lang: ReturnType<typeof languageOf>): ChatRequest {
  const request = body as ChatRequest | null;
  if (typeof request !== 'object' || request === null || Array.isArray(request)) {
    throw RelayError.of(400, lang, 'relay_body_invalid', { reason: 'JSON object expected' }, 'invalid_request');
  }
  if (typeof request.model !== 'string' || request.model.trim() === '') {
    throw RelayError.of(400, lang, 'relay_body_invalid', { reason: 'model is required' }, 'invalid_request');
  }
  if (!Array.isArray(request.messages) || request.messages.length === 0) {
    throw RelayError.of(
      400,
      lang,
      'relay_body_invalid',
      { reason: 'messages must be a non-empty array' },
      'invalid_request',
    );
  }
  return request;
}

/** Prices the request and reserves its estimated cost on the user and the token (all in memory). */
function reserve(
  ctx: AppContext,
  caller: RelayCaller,
  request: ChatRequest,
  lang: ReturnType<typeof languageOf>,
): Billing {
  const acceptUnset = userSetting(caller.user).accept_unset_model_ratio_model === true;
  const pricing = modelPricing(ctx.options, request.model, acceptUnset);
  if (!pricing) throw RelayError.of(400, lang, 'relay_model_unpriced', { model: request.model }, 'model_price_error');
  const ratio = groupRatio(ctx.options, caller.group);
  const reserved =
    pricing.kind === 'call'
      ? perCallQuota(pricing.price, ratio, ctx.options.number('QuotaPerUnit'))
      : preConsumeQuota(
          estimatePromptTokens(request.messages),
          maxOutputTokens(request),
          ctx.options.number('PreConsumedQuota'),
          pricing.modelRatio,
          ratio,
        );
  const unlimited = caller.token.unlimited_quota === 1;
  const failure = ctx.ledger.reserve(caller.user.id, caller.token.id, reserved, unlimited);
  if (failure === 'user_quota')
    throw RelayError.of(403, lang, 'relay_user_quota', undefined, 'insufficient_user_quota');
  if (failure === 'token_quota')
    throw RelayError.of(403, lang, 'relay_token_quota', undefined, 'pre_consume_token_quota_failed');
  return { caller, pricing, groupRatio: ratio, reserved };
}

function chooseChannel(
  ctx: AppContext,
  caller: RelayCaller,
  model: string,
  attempt: number,
  failed: Set<number>,
): CachedChannel | undefined {
  if (caller.pinnedChannelId !== null) {
    const pinned = ctx.channelCache.get(caller.pinnedChannelId);
    return pinned && pinned.status === 1 && !failed.has(pinned.id) ? pinned : undefined;
  }
  return pickChannel(ctx.channelCache.candidates(caller.group, model), attempt, failed);
}

/** Takes the channel out of rotation when the error says its key or account is unusable (and both switches allow). */
function maybeDisable(
  ctx: AppContext,
  channel: CachedChannel,
  error: { status: number; message: string; type: string; code: string | null },
) {
  if (!ctx.options.bool('AutomaticDisableChannelEnabled') || !channel.autoBan) return;
  if (!shouldDisableChannel(error, channel.type, ctx.options.get('AutomaticDisableKeywords'))) return;
  void ctx.channelWriter.setStatus(channel.id, 3, error.message).catch(() => {});
}

/** `POST /v1/chat/completions`: authenticate, reserve, pick a channel, relay (retrying elsewhere), settle, log. */
export async function handleChatCompletions(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<unknown> {
  const startedAt = performance.now();
  const lang = languageOf(request);
  const caller = await authenticateRelay(ctx, request, lang);
  const body = validate(request.body, lang);
  if (caller.modelLimits && !caller.modelLimits.has(body.model)) {
    throw RelayError.of(403, lang, 'relay_model_forbidden', { model: body.model }, 'model_not_allowed');
  }
  const billing = reserve(ctx, caller, body, lang);
  let settled = false;
  try {
    const failed = new Set<number>();
    const tried: number[] = [];
    const retries = caller.pinnedChannelId !== null ? 0 : Math.max(0, ctx.options.number('RetryTimes'));
    let lastError: RelayError | null = null;
    for (let attempt = 0; attempt <= retries; attempt++) {
      const channel = chooseChannel(ctx, caller, body.model, attempt, failed);
      if (!channel) break;
      tried.push(channel.id);
      const adapter = adapterFor(channel.type);
      if (!adapter) {
        lastError = RelayError.of(400, lang, 'relay_channel_unsupported', undefined, 'channel_unsupported');
        failed.add(channel.id);
        continue;
      }
      const mapped = channel.modelMapping
        ? resolveModelMapping(channel.modelMapping as Record<string, string>, body.model)
        : null;
      const upstreamModel = mapped && 'model' in mapped ? mapped.model : body.model;
      const call = adapter.chatCall(channel, { ...body, model: upstreamModel });
      const abort = new AbortController();
      const onClose = () => {
        if (!reply.raw.writableFinished) abort.abort();
      };
      reply.raw.on('close', onClose);
      let response: Awaited<ReturnType<typeof sendUpstream>>;
      try {
        response = await sendUpstream(call, { timeoutMs: UPSTREAM_TIMEOUT_MS, signal: abort.signal });
      } catch (error) {
        reply.raw.off('close', onClose);
        if (abort.signal.aborted) {
          // The client left before the upstream answered: nothing was produced, nothing is billed.
          ctx.ledger.refund(caller.user.id, caller.token.id, billing.reserved, caller.token.unlimited_quota === 1);
          settled = true;
          return reply;
        }
        const reason = error instanceof Error ? error.message : String(error);
        lastError = new RelayError(
          502,
          RelayError.of(502, lang, 'relay_upstream_unreachable', { reason }).message,
          'upstream_error',
          'upstream_unreachable',
        );
        failed.add(channel.id);
        continue;
      }
      if (response.statusCode < 200 || response.statusCode >= 300) {
        const text = await response.body.text().catch(() => '');
        reply.raw.off('close', onClose);
        const upstream = adapter.error(response.statusCode, text);
        const status = mapStatus(upstream.status, channel.statusCodeMapping as Record<string, string> | null);
        maybeDisable(ctx, channel, { ...upstream, status });
        lastError = new RelayError(status, upstream.message, upstream.type || 'upstream_error', upstream.code);
        failed.add(channel.id);
        if (!isRetriableStatus(status)) break;
        continue;
      }
      const context = {
        ctx,
        billing,
        body,
        channel,
        adapter,
        upstreamModel,
        tried,
        startedAt,
        requestId: String(request.id),
      };
      if (body.stream) await relayStream(context, response, reply, abort);
      else await relayJson(context, response, reply, lang);
      reply.raw.off('close', onClose);
      settled = true;
      return reply;
    }
    throw (
      lastError ??
      RelayError.of(503, lang, 'relay_no_channel', { group: caller.group, model: body.model }, 'model_not_found')
    );
  } finally {
    if (!settled)
      ctx.ledger.refund(caller.user.id, caller.token.id, billing.reserved, caller.token.unlimited_quota === 1);
  }
}

interface RelayContext {
  ctx: AppContext;
  billing: Billing;
  body: ChatRequest;
  channel: CachedChannel;
  adapter: ProviderAdapter;
  upstreamModel: string;
  tried: number[];
  startedAt: number;
  requestId: string;
}

async function usageOrCount(
  body: ChatRequest,
  usage: Usage | null | undefined,
  text: string,
): Promise<{ usage: Usage; counted: boolean }> {
  if (usage && (usage.prompt_tokens > 0 || usage.completion_tokens > 0)) return { usage, counted: false };
  const prompt = await countPromptTokens(body);
  const completion = await countTextTokens(text);
  return {
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
    counted: true,
  };
}

function finish(
  r: RelayContext,
  usage: Usage,
  counted: boolean,
  firstTokenMs: number | null,
  interruption?: string,
): void {
  settle(r.ctx, {
    caller: r.billing.caller,
    reserved: r.billing.reserved,
    pricing: r.billing.pricing,
    groupRatio: r.billing.groupRatio,
    usage,
    countedLocally: counted,
    channel: { id: r.channel.id, name: r.channel.name },
    model: r.body.model,
    upstreamModel: r.upstreamModel,
    isStream: Boolean(r.body.stream),
    startedAt: r.startedAt,
    firstTokenMs,
    triedChannels: r.tried,
    requestId: r.requestId,
    interruption,
  });
}

async function relayJson(
  r: RelayContext,
  response: Awaited<ReturnType<typeof sendUpstream>>,
  reply: FastifyReply,
  lang: ReturnType<typeof languageOf>,
): Promise<void> {
  const text = await response.body.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw RelayError.of(502, lang, 'relay_upstream_bad_response', undefined, 'bad_response_body');
  }
  const converted = r.adapter.chatResponse(parsed, r.upstreamModel);
  const content =
    converted.choices
      ?.map((choice) => (typeof choice.message?.content === 'string' ? choice.message.content : ''))
      .join('') ?? '';
  const { usage, counted } = await usageOrCount(r.body, converted.usage, content);
  finish(r, usage, counted, Math.round(performance.now() - r.startedAt));
  // OpenAI-format answers go back byte for byte; converted ones are serialised once.
  reply.header('content-type', 'application/json');
  reply.send(parsed === converted ? text : JSON.stringify(converted));
}

async function relayStream(
  r: RelayContext,
  response: Awaited<ReturnType<typeof sendUpstream>>,
  reply: FastifyReply,
  abort: AbortController,
): Promise<void> {
  const raw = reply.raw;
  reply.hijack();
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-oneapi-request-id': r.requestId,
  });
  const converter = r.adapter.stream(r.upstreamModel, r.body.stream_options?.include_usage === true);
  const state = newStreamState();
  const decoder = new TextDecoder();
  let pending = '';
  const parser = createParser({
    onEvent(event) {
      pending += converter.push(
        { event: event.event, data: event.data },
        state,
        Math.round(performance.now() - r.startedAt),
      );
    },
  });
  let interruption: string | undefined;
  try {
    for await (const chunk of response.body) {
      parser.feed(decoder.decode(chunk as Buffer, { stream: true }));
      if (pending) {
        const out = pending;
        pending = '';
        // Respect a slow client instead of buffering the whole answer in memory.
        if (!raw.write(out)) await once(raw, 'drain', { signal: abort.signal });
      }
    }
    raw.end(converter.end(state));
  } catch (error) {
    interruption = abort.signal.aborted
      ? 'client_disconnected'
      : `upstream_error: ${error instanceof Error ? error.message : String(error)}`;
    if (!abort.signal.aborted) raw.end();
    response.body.destroy();
  }
  const { usage, counted } = await usageOrCount(r.body, state.usage, state.text);
  finish(r, usage, counted, state.firstTokenMs, interruption);
}
