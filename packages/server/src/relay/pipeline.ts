import { ChannelStatus, type Language, LogType, resolveModelMapping } from '@gateway/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CachedChannel } from '../cache/channel-cache.js';
import type { AppContext } from '../context.js';
import { isDatabaseUnavailable } from '../db/outage.js';
import { nowSeconds } from '../db/sql-helpers.js';
import { databaseUnavailableError } from '../http/database-unavailable.js';
import { languageOf } from '../http/envelope.js';
import type { RelayTally, RouteMetrics } from '../metrics/relay-metrics.js';
import { authenticateRelay } from './admission/authenticate.js';
import { bodyRecorder } from './admission/body-capture/recorder.js';
import type { RelayCaller } from './admission/caller.js';
import {
  bodyForModel,
  type FallbackTrail,
  fallbackFacts,
  fallbackModels,
  fallbackUsable,
  fallsBack,
  reserveFallback,
  SERVED_MODEL_HEADER,
  servedModelHeader,
} from './admission/fallback.js';
import { admitModelRequest } from './admission/limits/model-request-limit.js';
import type { Admission, LimitEstimate } from './admission/limits/request-limiter.js';
import type { Binding } from './affinity/channel-affinity.js';
import { conversationKey } from './affinity/conversation-key.js';
import { AnswerTooLarge } from './answer-limits.js';
import { shouldDisableChannel } from './auto-disable.js';
import { Cancellation } from './cancellation.js';
import type { Endpoint, Leg, ParsedRequest } from './endpoint.js';
import { RelayError } from './errors.js';
import { ConversionError } from './formats/openai-chat/conversion-error.js';
import { modelSuffixOf } from './model-suffix.js';
import { OVERHEAD_HEADER, overheadHeaderValue } from './overhead.js';
import { applyOverrides, withHeaderOverride } from './overrides/apply.js';
import type { Provider } from './provider.js';
import { providerFor } from './providers/registry.js';
import { type Outcome, readAnswer } from './read-answer.js';
import { type Billing, noChannelError, refund, reserveQuota } from './reserve.js';
import { isRetriableStatus, mapStatus } from './retry.js';
import { pickChannel } from './select.js';
import { sendUpstream, type UpstreamResponse } from './send.js';
import { settle } from './settle.js';
import type { UpstreamError, Usage } from './types.js';
import { oversizedAnswer, unreachableUpstream, upstreamRefusal } from './upstream-failure.js';
import { countTextTokens } from './usage.js';

/**
 * The conveyor: every model request's whole life, for every endpoint. authenticate → read the request → price and
 * reserve → (rate limit) → pick a channel → plan the call on its provider → overrides → send → read the answer →
 * count what the upstream did not report → settle → log, trying another channel on a retriable failure. The
 * reservation is refunded whenever the request ends without a settled bill. Endpoints only describe themselves.
 */
export function conveyor<Request>(ctx: AppContext, endpoint: Endpoint<Request>) {
  // One conveyor per route: its metrics are found at its first request (Fastify names the route on the request).
  let metrics: RouteMetrics | undefined;
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const startedAt = performance.now();
    metrics ??= ctx.metrics.relay.route(request.routeOptions.url ?? 'unknown');
    // Counted once, however the request ends (answered, refused, thrown, client gone).
    const tally = metrics.begin(startedAt);
    try {
      const lang = languageOf(request);
      const requestId = String(request.id);
      // Task clients look for the request id header on every answer (the model routes get it from the app's hook).
      if (endpoint.answerError) reply.header('X-Oneapi-Request-Id', requestId);
      // Authentication comes first, as in the family: a request without a valid key learns nothing else.
      const caller = endpoint.authenticate
        ? await endpoint.authenticate(ctx, request, lang)
        : await authenticateRelay(ctx, request, lang);
      if (!endpoint.answerError) {
        return await runConveyor(ctx, endpoint, request, reply, caller, lang, startedAt, requestId, tally);
      }
      // Task clients read refusals after authentication in their own shape.
      try {
        return await runConveyor(ctx, endpoint, request, reply, caller, lang, startedAt, requestId, tally);
      } catch (error) {
        // An unreachable database is refused like the rest: a 503 in the task API's shape.
        const refusal = isDatabaseUnavailable(error) ? databaseUnavailableError(lang) : error;
        if (!(refusal instanceof RelayError)) throw error;
        if (refusal.status === 429 || refusal.retryAfter !== undefined) {
          reply.header('Retry-After', String(refusal.retryAfter ?? 30));
        }
        return endpoint.answerError(reply, refusal, requestId);
      }
    } finally {
      // A refusal thrown above is written by the error handler after this: it carries the figure too.
      if (!reply.sent && !reply.raw.headersSent) reply.header(OVERHEAD_HEADER, overheadHeaderValue(startedAt, tally));
      tally.finish();
    }
  };
}

async function runConveyor<Request>(
  ctx: AppContext,
  endpoint: Endpoint<Request>,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: RelayCaller,
  lang: Language,
  startedAt: number,
  requestId: string,
  tally: RelayTally,
): Promise<FastifyReply> {
  const parsing = endpoint.parse(request, lang, caller);
  // Model requests parse synchronously: no extra turn of the event loop for them.
  const parsed = parsing instanceof Promise ? await parsing : parsing;
  const billing = await reserveQuota(ctx, caller, { model: parsed.model, ...parsed.reserve }, lang);
  // Only a priced (or accepted) model becomes a label: refused names could be anything a client typed.
  tally.model = billing.model;
  const run: Run<Request> = {
    ctx,
    endpoint,
    parsed,
    billing,
    lang,
    startedAt,
    requestId,
    tally,
    tried: [],
    held: true,
    // Model requests that name a conversation stay on its channel (affinity/); nothing is read otherwise.
    conversation:
      endpoint.modelRequest !== false && ctx.channelAffinity.enabled
        ? conversationKey(request.headers, request.body)
        : null,
  };
  let settled = false;
  let limits: Admission | null = null;
  try {
    // The model request rate limit (awaited only when on); a refusal is refunded by the finally below.
    if (endpoint.modelRequest !== false) {
      const limited = admitModelRequest(ctx.modelLimiter, caller, lang);
      if (limited) await limited;
    }
    // Token, user and group limits and the token's budget (services/limits): awaited only with Redis.
    const estimate = { tokens: parsed.reserve.promptEstimate + parsed.reserve.maxOutput, quota: billing.reserved };
    const admitting = ctx.limits.admit(caller, estimate, lang);
    limits = admitting instanceof Promise ? await admitting : admitting;
    settled = await carryModels(run, reply, request);
    return reply;
  } finally {
    if (!settled && run.held) refund(ctx, run.billing);
    limits?.finish(settled ? (run.spent ?? null) : null);
  }
}

interface Run<Request> {
  ctx: AppContext;
  endpoint: Endpoint<Request>;
  parsed: ParsedRequest<Request>;
  billing: Billing;
  lang: Language;
  startedAt: number;
  requestId: string;
  tally: RelayTally;
  /** What the request really used, once settled (the limits correct their estimates to it). */
  spent?: LimitEstimate;
  /** Channels tried for the request, every model's, in order (the logs' admin_info.use_channel). */
  tried: number[];
  /** Whether `billing` still holds its reservation (false between a fallback's refund and its own reservation). */
  held: boolean;
  /** Set once a fallback model is tried: the logs record the requested model and the chain. */
  fallback?: FallbackTrail;
  /** The conversation the request belongs to (affinity/conversation-key.ts), null when it names none. */
  conversation: string | null;
}

/** A conversation's binding for one model: where its turns go while that channel answers. */
interface Sticky {
  key: string;
  binding: Binding | null;
}

/**
 * The requested model, then its fallback models (fallback.ts) while the failure is one that falls back. Every
 * failure here happened before the client got a byte, streams included. Each fallback is reserved at its own price
 * once the previous reservation is refunded, so a request holds (and is billed for) one model at a time.
 */
async function carryModels<Request>(run: Run<Request>, reply: FastifyReply, request: FastifyRequest): Promise<boolean> {
  const { ctx, parsed, lang } = run;
  let carried = await carry(run, reply);
  if (typeof carried === 'boolean') return carried;
  const { caller, model: requested } = run.billing;
  const pinned = run.endpoint.modelRequest === false || (parsed.fixedChannelId ?? caller.pinnedChannelId) !== null;
  for (const model of fallbackModels(ctx.options, caller, requested, request.headers, pinned)) {
    if (typeof carried === 'boolean' || !fallsBack(ctx.options, carried.failure)) break;
    if (!fallbackUsable(ctx, caller, model)) continue;
    if (run.held) refund(ctx, run.billing);
    run.held = false;
    const next = await reserveFallback(ctx, caller, model, parsed.reserve, lang);
    if (!next) continue;
    run.billing = next;
    run.held = true;
    run.tally.model = model;
    run.fallback = { requested, chain: [...(run.fallback?.chain ?? [requested]), model] };
    carried = await carry(run, reply);
  }
  if (typeof carried === 'boolean') return carried;
  if (ctx.config.errorLogEnabled) logFailure(run, carried.failure, run.tried);
  throw carried.failure;
}

/**
 * Tries the model's channels until one answers; returns whether the bill was settled (false: the client left
 * first), or the failure when no channel answered (nothing reached the client: another model may still serve).
 */
async function carry<Request>(run: Run<Request>, reply: FastifyReply): Promise<boolean | { failure: RelayError }> {
  const { ctx, billing, parsed, lang } = run;
  const { caller } = billing;
  const failed = new Set<number>();
  const tried = run.tried;
  const fixed = parsed.fixedChannelId ?? caller.pinnedChannelId;
  const retries = fixed !== null ? 0 : Math.max(0, ctx.options.number('RetryTimes'));
  let lastError: RelayError | null = null;
  let rawText: string | undefined;
  // Per token, model and conversation; one lookup (a Redis GET when shared) per request that names a conversation.
  let sticky: Sticky | null = null;
  if (fixed === null && run.conversation !== null) {
    const key = `${caller.token.id}:${billing.model}:${run.conversation}`;
    const found = ctx.channelAffinity.lookup(key);
    sticky = { key, binding: found instanceof Promise ? await found : found };
  }
  // Whether the last failure was the request's own (a 400, an override's refusal): it says nothing of the channel.
  let requestFault = false;
  for (let attemptIndex = 0; attemptIndex <= retries; attemptIndex++) {
    // The bound channel failed this request: the binding goes, and the retry is placed as any other request.
    if (sticky) unstick(ctx, sticky, failed);
    const channel = chooseChannel(run, attemptIndex, failed, sticky?.binding ?? null);
    if (!channel) {
      if (attemptIndex === 0 && parsed.fixedChannelId != null) {
        lastError = RelayError.of(400, lang, 'task_channel_disabled', undefined, 'channel_disabled');
      }
      break;
    }
    tried.push(channel.id);
    failed.add(channel.id);
    run.tally.trying(channel.id, attemptIndex);
    const provider = providerFor(channel.type);
    const mappedModel = upstreamModelFor(channel, billing.model);
    // A name without a suffix costs one test here; with one, the upstream gets the name without it.
    const suffix = modelSuffixOf(mappedModel, provider?.suffixDialect?.(mappedModel), ctx.options);
    const upstreamModel = suffix ? suffix.upstreamModel : mappedModel;
    const bound = sticky?.binding?.channelId === channel.id ? sticky.binding.keyIndex : undefined;
    const { channel: keyed, keyIndex } = withKey(channel, bound);
    let leg: Leg | null = null;
    try {
      leg = provider ? run.endpoint.plan(provider, keyed, parsed, upstreamModel, ctx.options, suffix) : null;
    } catch (error) {
      // This channel's format cannot express part of the request: another channel may take it as it is.
      if (!(error instanceof ConversionError)) throw error;
      lastError = error.words
        ? RelayError.of(400, lang, error.words.code, error.words.params, 'invalid_request')
        : RelayError.of(400, lang, 'relay_conversion_unsupported', { what: error.what }, 'conversion_unsupported');
      continue;
    }
    if (!provider || !leg) {
      lastError ??= RelayError.of(400, lang, 'relay_channel_unsupported', undefined, 'channel_unsupported');
      continue;
    }
    const passThrough =
      parsed.rawBody !== undefined &&
      (channel.setting?.pass_through_body_enabled === true || ctx.options.bool('global.pass_through_request_enabled'));
    if (passThrough)
      rawText ??= JSON.stringify(run.fallback ? bodyForModel(parsed.rawBody, billing.model) : parsed.rawBody);
    const overridden =
      leg.paramOverride === false
        ? { call: { ...leg.call, headers: withHeaderOverride(leg.call.headers, keyed) } }
        : applyOverrides(
            leg.call,
            keyed,
            { original_model: billing.model, upstream_model: upstreamModel },
            passThrough ? rawText : undefined,
          );
    if (!('call' in overridden)) {
      if ('invalid' in overridden) {
        // The channel's own configuration is broken: another channel may still serve (family: "channel:" errors).
        lastError = new RelayError(500, overridden.invalid, 'channel_error', 'channel:param_override_invalid');
        continue;
      }
      const { status, message, code, skipRetry } = overridden.refusal;
      lastError = new RelayError(status, message, 'invalid_request_error', code);
      requestFault = skipRetry === true;
      if (skipRetry) break;
      continue;
    }
    const cancellation = new Cancellation();
    const onClose = () => {
      if (!reply.raw.writableFinished) cancellation.abort();
    };
    reply.raw.on('close', onClose);
    // Gone before anyone listened (a WebSocket client that closed while its request was being admitted).
    if (reply.raw.destroyed) cancellation.abort();
    try {
      let response: UpstreamResponse;
      const sending = {
        timeoutMs: ctx.config.relayTimeoutMs,
        cancellation,
        maxAnswerBytes: ctx.config.answerLimits.wholeBytes,
        clock: run.tally,
      };
      try {
        response = provider.open
          ? await provider.open(overridden.call, keyed, { ...sending, stream: leg.read.kind === 'sse', send: leg.open })
          : leg.open
            ? await leg.open(overridden.call, sending)
            : await sendUpstream(overridden.call, sending);
      } catch (error) {
        // The client left before the upstream answered: nothing was produced, nothing is billed.
        if (cancellation.aborted) {
          run.tally.cancelled();
          return false;
        }
        if (error instanceof AnswerTooLarge) {
          // A provider that reads the answer itself (a refusal in a 200 body, assembled frames) met one too large:
          // answered as the reader below answers it, not retried.
          const failure = oversizedAnswer(error, keyed, lang);
          if (ctx.config.errorLogEnabled) logFailure(run, failure, tried);
          throw failure;
        }
        ctx.metrics.relay.upstreamUnreachable(channel.id);
        lastError = unreachableUpstream(error, keyed, lang);
        continue;
      }
      ctx.metrics.relay.upstreamAnswered(channel.id, response.statusCode);
      if (response.statusCode < 200 || response.statusCode >= 300) {
        const text = await response.body.text().catch(() => '');
        const upstream = provider.error(response.statusCode, text);
        const status = mapStatus(upstream.status, channel.statusCodeMapping as Record<string, string> | null);
        maybeDisable(ctx, channel, { ...upstream, status });
        lastError = upstreamRefusal({ ...upstream, status }, { ...response, text }, keyed, lang);
        // A refused channel key says nothing about the request (Google's is a 400): another channel may serve it.
        if (!isRetriableStatus(status) && lastError.code !== 'upstream_channel_unavailable') {
          requestFault = true;
          break;
        }
        continue;
      }
      // From here the answer belongs to this channel: no retry once the client may have seen bytes.
      if (sticky) ctx.channelAffinity.bind(sticky.key, { channelId: channel.id, keyIndex });
      if (leg.headers) reply.headers(leg.headers);
      reply.header(SERVED_MODEL_HEADER, servedModelHeader(billing.model));
      let outcome: Outcome;
      // Kept bodies (off unless the channel or group asks): recorded as sent, queued with the usage log.
      const bodies = bodyRecorder(ctx, caller, keyed, reply.request);
      try {
        outcome = await readAnswer(leg.read, response, reply, {
          channel: keyed,
          billing,
          requestId: run.requestId,
          startedAt: run.startedAt,
          clock: run.tally,
          cancellation,
          lang,
          bodies,
          maxEventBytes: ctx.config.answerLimits.eventBytes,
        });
      } catch (error) {
        // An answer that could not be read reached the client as an error alone: the admin's log says why.
        if (error instanceof RelayError && ctx.config.errorLogEnabled) logFailure(run, error, tried);
        throw error;
      }
      const charged = await settleOutcome(run, channel, upstreamModel, tried, outcome);
      run.tally.settled(charged, outcome.interruption, run.parsed.stream, outcome.firstTokenMs);
      outcome.deliver?.();
      if (charged) bodies?.commit(run.requestId);
      return charged;
    } finally {
      reply.raw.off('close', onClose);
    }
  }
  if (sticky && !requestFault) unstick(ctx, sticky, failed);
  const failure = lastError ?? noChannelError(ctx, caller.group, billing.model, lang);
  return { failure };
}

function unstick(ctx: AppContext, sticky: Sticky, failed: ReadonlySet<number>): void {
  if (!sticky.binding || !failed.has(sticky.binding.channelId)) return;
  ctx.channelAffinity.drop(sticky.key, sticky.binding.channelId);
  sticky.binding = null;
}

/**
 * The one place that counts tokens the upstream did not report, then settles the bill (model calls and tasks
 * alike). Returns false when nothing is owed (a refused task): the reservation is then refunded.
 */
async function settleOutcome<Request>(
  run: Run<Request>,
  channel: CachedChannel,
  upstreamModel: string,
  tried: number[],
  outcome: Outcome,
): Promise<boolean> {
  const { ctx, billing } = run;
  const task = outcome.task;
  if (task && !task.charged) return false;
  const reported = outcome.usage;
  let usage: Usage;
  let countedLocally = false;
  if (task) {
    usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  } else if (reported && (reported.prompt_tokens > 0 || reported.completion_tokens > 0)) {
    usage = reported;
  } else {
    const prompt = await run.parsed.countPrompt();
    const completion = await countTextTokens(outcome.outputText);
    usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
    countedLocally = true;
  }
  const quota = settle(ctx, {
    caller: billing.caller,
    reserved: billing.reserved,
    subscriptionId: billing.subscriptionId,
    pricing: billing.pricing,
    groupRatio: billing.groupRatio,
    callCount: billing.callCount,
    usage,
    countedLocally,
    channel: { id: channel.id, name: channel.name },
    model: billing.model,
    upstreamModel,
    isStream: run.parsed.stream,
    startedAt: run.startedAt,
    firstTokenMs: outcome.firstTokenMs,
    triedChannels: tried,
    requestId: run.requestId,
    interruption: outcome.interruption,
    task: task?.charged ?? undefined,
    fallback: run.fallback,
  });
  run.spent = { tokens: usage.prompt_tokens + usage.completion_tokens, quota };
  run.tally.completionTokens = usage.completion_tokens;
  if (!task && !outcome.interruption) ctx.modelLimiter.succeeded(billing.caller.user.id);
  return true;
}

function chooseChannel<Request>(run: Run<Request>, attempt: number, failed: Set<number>, bound: Binding | null) {
  const { ctx, billing, endpoint } = run;
  const fixed = run.parsed.fixedChannelId ?? billing.caller.pinnedChannelId;
  if (fixed !== null) {
    const pinned = ctx.channelCache.get(fixed);
    return pinned && pinned.status === ChannelStatus.Enabled && !failed.has(pinned.id) ? pinned : undefined;
  }
  let candidates = ctx.channelCache.candidates(billing.caller.group, billing.model);
  const serves = endpoint.serves;
  if (serves && !candidates.every((channel) => servedBy(channel, serves))) {
    const serving = candidates.filter((channel) => servedBy(channel, serves));
    // None serves it: one is still tried, so the answer says the channel cannot (a 400), not that none is up.
    if (serving.length > 0) candidates = serving;
  }
  // The conversation's channel while it is enabled, serves the model and has not failed this request.
  if (bound && !failed.has(bound.channelId)) {
    const held = candidates.find((channel) => channel.id === bound.channelId);
    if (held) return held;
  }
  return pickChannel(candidates, attempt, failed);
}

function servedBy(channel: CachedChannel, serves: (provider: Provider) => boolean): boolean {
  const provider = providerFor(channel.type);
  return provider !== undefined && serves(provider);
}

/** Takes the channel out of rotation when the error says its key or account is unusable (and both switches allow). */
function maybeDisable(ctx: AppContext, channel: CachedChannel, error: UpstreamError): void {
  if (!ctx.options.bool('AutomaticDisableChannelEnabled') || !channel.autoBan) return;
  const keywords = ctx.options.get('AutomaticDisableKeywords');
  if (!shouldDisableChannel(error, providerFor(channel.type), keywords)) return;
  void ctx.channelWriter.setStatus(channel.id, ChannelStatus.AutoDisabled, error.message).catch(() => {});
}

/** A type-5 log row for a request that no channel could answer, so admins see failures next to usage. */
function logFailure<Request>(run: Run<Request>, error: RelayError, tried: number[]): void {
  const { ctx, billing } = run;
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
    model_name: run.fallback?.requested ?? billing.model,
    use_time: Math.round((performance.now() - run.startedAt) / 1000),
    is_stream: run.parsed.stream ? 1 : 0,
    channel_id: channel?.id ?? 0,
    channel_name: channel?.name ?? '',
    group: caller.group,
    request_id: run.requestId,
    other: JSON.stringify({
      status_code: error.status,
      error_code: error.code,
      admin_info: { use_channel: tried.map(String), ...(error.detail ? { upstream_detail: error.detail } : {}) },
      // The fact behind our words: `content` is in the caller's language, the log view renders each reader's.
      ...(error.words ? { message_code: error.words.code, message_params: error.words.params ?? {} } : {}),
      ...fallbackFacts(run.fallback),
    }),
  });
}

const keyTurns = new WeakMap<CachedChannel, number>();

/**
 * A channel with several keys (one per line) takes them in turn, spreading load and rate limits across them; a
 * conversation bound to one of its keys (`bound`, while the channel still has it) keeps that key.
 */
export function withKey(
  channel: CachedChannel,
  bound: number | undefined,
): { channel: CachedChannel; keyIndex: number } {
  if (channel.keys.length < 2) return { channel, keyIndex: 0 };
  let keyIndex: number;
  if (bound !== undefined && bound < channel.keys.length) keyIndex = bound;
  else {
    const turn = keyTurns.get(channel) ?? 0;
    keyTurns.set(channel, turn + 1);
    keyIndex = turn % channel.keys.length;
  }
  return { channel: { ...channel, key: channel.keys[keyIndex]! }, keyIndex };
}

export function upstreamModelFor(channel: CachedChannel, model: string): string {
  if (!channel.modelMapping) return model;
  const mapped = resolveModelMapping(channel.modelMapping as Record<string, string>, model);
  return 'model' in mapped ? mapped.model : model;
}
