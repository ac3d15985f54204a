import { ChannelStatus, channelType, type Language } from '@gateway/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import WebSocket from 'ws';
import type { CachedChannel } from '../../cache/channel-cache.js';
import type { AppContext } from '../../context.js';
import { languageOf } from '../../http/envelope.js';
import { authenticateRelay } from '../admission/authenticate.js';
import type { RelayCaller } from '../admission/caller.js';
import { RelayError } from '../errors.js';
import { upstreamModelFor, withKey } from '../pipeline.js';
import { openAiHeaders, openAiQuirks, openAiUrl } from '../providers/openai/url.js';
import { noChannelError, refund, reserveQuota } from '../reserve.js';
import { pickChannel } from '../select.js';
import { unreachableUpstream } from '../upstream-failure.js';
import { RealtimeSession } from './realtime-session.js';
import { upgradeRequired } from './responses-socket.js';
import { acceptUpgradesOn, completeUpgrade, isUpgrade, relaySocketServer } from './upgrade.js';

/**
 * OpenAI's Realtime API (`GET /v1/realtime?model=…` with a WebSocket upgrade), relayed to an OpenAI or Azure channel.
 * Everything that can refuse happens before the client's handshake completes, as HTTP: the key (also taken from the
 * browser's `openai-insecure-api-key.<key>` subprotocol), the model's channel, the first reservation, and the
 * upstream's own handshake (another channel is tried when one refuses). Then the session's events pass both ways
 * unchanged and each `response.done` is billed (realtime-session.ts).
 */

const PATH = '/v1/realtime';
/** Channels tried for one session before the client is told the upstream is unavailable. */
const MAX_ATTEMPTS = 3;
/** The beta flag a browser offers as a subprotocol, sent upstream as the `OpenAI-Beta` header. */
const BETA_PROTOCOL = 'openai-beta.realtime-v1';
/** Handshake refusals that are the channel's (its key, its limits): another channel is tried. */
const CHANNEL_STATUSES = new Set([401, 403, 408, 429]);

export function realtimeRoutes(app: FastifyInstance, ctx: AppContext): void {
  const sockets = relaySocketServer(ctx);
  const sessions = new Set<RealtimeSession>();
  app.addHook('preClose', async () => {
    for (const session of sessions) session.close(1001, 'server shutting down');
  });
  acceptUpgradesOn(app, PATH);

  app.get(PATH, async (request: FastifyRequest, reply: FastifyReply) => {
    const lang = languageOf(request);
    const caller = await authenticateRelay(ctx, request, lang);
    if (!isUpgrade(request)) throw upgradeRequired(reply, lang);
    const model = (request.query as Record<string, unknown>).model;
    if (typeof model !== 'string' || model === '') {
      throw RelayError.of(400, lang, 'relay_body_invalid', { reason: 'model is required' }, 'invalid_request');
    }
    const candidates = realtimeCandidates(ctx, caller, model, lang);
    const billing = await reserveQuota(ctx, caller, { model, promptEstimate: 0, maxOutput: 0 }, lang);
    let opened: Opened;
    try {
      opened = await openUpstream(ctx, candidates, model, betaFlag(request), lang);
    } catch (error) {
      refund(ctx, billing);
      throw error;
    }
    const accepted = completeUpgrade(sockets, request, reply, (client) => {
      const session = new RealtimeSession(ctx, client, opened.socket, {
        billing,
        channel: opened.channel,
        upstreamModel: opened.upstreamModel,
        tried: opened.tried,
        requestId: String(request.id),
        lang,
      });
      sessions.add(session);
      session.onEnd(() => sessions.delete(session));
      session.start();
    });
    if (!accepted) {
      // The client left during the upstream's handshake.
      opened.socket.terminate();
      refund(ctx, billing);
    }
    return reply;
  });
}

/** The channels that may serve the model for the caller: OpenAI-format rows with a realtime endpoint. */
function realtimeCandidates(ctx: AppContext, caller: RelayCaller, model: string, lang: Language): CachedChannel[] {
  let listed: CachedChannel[];
  if (caller.pinnedChannelId !== null) {
    const pinned = ctx.channelCache.get(caller.pinnedChannelId);
    listed = pinned && pinned.status === ChannelStatus.Enabled ? [pinned] : [];
  } else {
    listed = [...ctx.channelCache.candidates(caller.group, model)];
  }
  if (listed.length === 0) throw noChannelError(ctx, caller.group, model, lang);
  const serving = listed.filter((channel) => speaksRealtime(channel.type));
  if (serving.length === 0) throw RelayError.of(400, lang, 'relay_channel_unsupported', undefined, 'invalid_request');
  return serving;
}

/** OpenAI itself and compatible rows with its URL layout, and Azure OpenAI. */
function speaksRealtime(type: number): boolean {
  if (channelType(type)?.openAi === undefined) return false;
  const shape = openAiQuirks(type).urlShape;
  return shape === undefined || shape === 'azure-deployment';
}

/** `OpenAI-Beta: realtime=v1` when the client asked for the beta protocol (header or browser subprotocol). */
function betaFlag(request: FastifyRequest): string | undefined {
  const header = request.headers['openai-beta'];
  if (typeof header === 'string' && header) return header;
  const offered = String(request.headers['sec-websocket-protocol'] ?? '').split(',');
  return offered.some((protocol) => protocol.trim() === BETA_PROTOCOL) ? 'realtime=v1' : undefined;
}

/** The upstream's realtime socket URL and handshake headers for a channel (its key already chosen). */
export function realtimeCall(
  channel: CachedChannel,
  upstreamModel: string,
  beta: string | undefined,
): { url: string; headers: Record<string, string> } {
  let url = openAiUrl(channel, '/realtime', upstreamModel);
  if (openAiQuirks(channel.type).urlShape === undefined) url += `?model=${encodeURIComponent(upstreamModel)}`;
  const { 'content-type': _json, ...headers } = openAiHeaders(channel);
  if (beta) headers['openai-beta'] = beta;
  if (channel.headerOverride) Object.assign(headers, channel.headerOverride);
  return { url: url.replace(/^http(s?):/i, (_match, secure: string) => `ws${secure}:`), headers };
}

interface Opened {
  socket: WebSocket;
  channel: CachedChannel;
  upstreamModel: string;
  tried: number[];
}

/** Opens the upstream socket on the first channel that accepts it; its messages wait (paused) for the client. */
async function openUpstream(
  ctx: AppContext,
  candidates: CachedChannel[],
  model: string,
  beta: string | undefined,
  lang: Language,
): Promise<Opened> {
  const failed = new Set<number>();
  const tried: number[] = [];
  let failure: RelayError | null = null;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const picked = pickChannel(candidates, attempt, failed);
    if (!picked) break;
    const { channel } = withKey(picked, undefined);
    tried.push(channel.id);
    const upstreamModel = upstreamModelFor(channel, model);
    const outcome = await connect(realtimeCall(channel, upstreamModel, beta), ctx.config.relayTimeoutMs);
    if (outcome instanceof WebSocket) return { socket: outcome, channel, upstreamModel, tried };
    failed.add(channel.id);
    if (typeof outcome !== 'number') {
      failure = unreachableUpstream(outcome, channel, lang);
      continue;
    }
    failure = RelayError.worded(
      outcome >= 500 ? 502 : outcome,
      lang,
      { code: 'relay_upstream_status', params: { status: outcome } },
      'upstream_error',
      'upstream_refused',
    );
    // A refusal of the request itself (not of the channel's key, load or health) would be the same elsewhere.
    if (!CHANNEL_STATUSES.has(outcome) && outcome < 500) break;
  }
  throw failure ?? noChannelError(ctx, '', model, lang);
}

/** The open socket (paused), the status of a refused handshake, or the network failure. */
function connect(
  call: { url: string; headers: Record<string, string> },
  timeoutMs: number,
): Promise<WebSocket | number | Error> {
  return new Promise((resolve) => {
    const socket = new WebSocket(call.url, { headers: call.headers, handshakeTimeout: timeoutMs || undefined });
    let settled = false;
    const settle = (outcome: WebSocket | number | Error) => {
      if (settled) return;
      settled = true;
      if (outcome !== socket) socket.terminate();
      resolve(outcome);
    };
    socket.on('unexpected-response', (upgrade, response) => {
      upgrade.destroy();
      settle(response.statusCode ?? 502);
    });
    socket.on('open', () => {
      socket.pause();
      settle(socket);
    });
    socket.on('error', (error) => settle(error));
  });
}
