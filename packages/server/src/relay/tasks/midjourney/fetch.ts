import { Readable } from 'node:stream';
import type { Language } from '@gateway/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../context.js';
import type { MidjourneyRow } from '../../../db/schema.js';
import { languageOf } from '../../../http/envelope.js';
import { RelayError } from '../../errors.js';
import { readUpstreamError } from '../../providers/errors.js';
import { midjourneyProvider } from '../../providers/midjourney/provider.js';
import { providerFor } from '../../providers/registry.js';
import { joinUrl } from '../../providers/task-call.js';
import { sendUpstream } from '../../send.js';
import { unreachableUpstream, unreadableAnswer, upstreamRefusal } from '../../upstream-failure.js';
import { fileHostAllowed } from '../file-host.js';
import { gatewayBase, lookupIds, openTaskRequest } from '../task-request.js';
import { callVendor } from '../vendor-call.js';
import { sendMjError } from './reply.js';
import { imageUrlFor, midjourneyDto } from './view.js';

const IMAGE_TIMEOUT_MS = 60_000;

function dtoFor(ctx: AppContext, request: FastifyRequest, row: MidjourneyRow) {
  return midjourneyDto(row, imageUrlFor(row, ctx.options.bool('MjForwardUrlEnabled'), gatewayBase(ctx, request)));
}

/** Someone else's task answers like a missing one, so ids of other users' tasks cannot be probed. */
const taskNotFound = (lang: Language) => RelayError.of(404, lang, 'task_not_found', undefined, 'task_not_found');

/** `GET /mj/task/{id}/fetch`: the caller's own task, from the database (the poller keeps it current). */
export function midjourneyFetchHandler(ctx: AppContext) {
  const store = ctx.repos.midjourneys;
  return async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    const { lang, requestId, caller } = await openTaskRequest(ctx, request, reply);
    const row = await store.findForUser(caller.user.id, request.params.id);
    if (!row) return sendMjError(reply, taskNotFound(lang), requestId);
    return dtoFor(ctx, request, row);
  };
}

/** `POST /mj/task/list-by-condition` `{ids:[…]}`: the caller's tasks among those ids (others' ids yield nothing). */
export function midjourneyListByConditionHandler(ctx: AppContext) {
  const store = ctx.repos.midjourneys;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { lang, requestId, caller } = await openTaskRequest(ctx, request, reply);
    const ids = lookupIds(request.body, lang);
    if (ids instanceof RelayError) return sendMjError(reply, ids, requestId);
    const rows = await store.findManyForUser(caller.user.id, ids);
    return rows.map((row) => dtoFor(ctx, request, row));
  };
}

/**
 * `GET /mj/task/{id}/image-seed`: the seed lives only at the upstream, so the caller's own task is looked up and
 * the question goes to the channel that drew it. Free, like every read.
 */
export function midjourneyImageSeedHandler(ctx: AppContext) {
  const store = ctx.repos.midjourneys;
  return async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    const { lang, requestId, caller } = await openTaskRequest(ctx, request, reply);
    const row = await store.findForUser(caller.user.id, request.params.id);
    if (!row) return sendMjError(reply, taskNotFound(lang), requestId);
    const channel = ctx.channelCache.get(row.channel_id);
    if (!channel) {
      return sendMjError(
        reply,
        RelayError.of(400, lang, 'task_channel_disabled', undefined, 'channel_disabled'),
        requestId,
      );
    }
    try {
      const path = `/mj/task/${encodeURIComponent(row.mj_id)}/image-seed`;
      const provider = providerFor(channel.type) ?? midjourneyProvider;
      const answer = await callVendor(provider, channel, {
        method: 'GET',
        url: joinUrl(channel.baseUrl, path),
        headers: { accept: 'application/json', 'mj-api-secret': channel.key },
      });
      if (answer.json !== null) {
        return reply.code(answer.status === 401 || answer.status === 403 ? 500 : answer.status).send(answer.json);
      }
      // A page from a proxy in front of the upstream, or no answer at all: the status alone, never the page.
      const unreadable =
        answer.status >= 200 && answer.status < 300
          ? unreadableAnswer(answer.status, answer.text, channel, lang)
          : upstreamRefusal(
              readUpstreamError(answer.status, answer.text),
              { statusCode: answer.status, headers: {}, text: answer.text },
              channel,
              lang,
            );
      return sendMjError(reply, unreadable, requestId);
    } catch (error) {
      return sendMjError(reply, unreachableUpstream(error, channel, lang), requestId);
    }
  };
}

/**
 * `GET /mj/image/{id}`: streams a task's image from wherever the upstream stored it, so forwarded links work
 * without exposing the upstream. No key needed (family behaviour: the links are embedded in pages and chats).
 */
export function midjourneyImageHandler(ctx: AppContext) {
  const store = ctx.repos.midjourneys;
  return async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    const lang = languageOf(request);
    const requestId = String(request.id);
    const row = await store.findByMjId(request.params.id);
    const unavailable = (status: number) =>
      sendMjError(
        reply,
        RelayError.of(status, lang, 'task_image_unavailable', undefined, 'image_unavailable'),
        requestId,
      );
    if (!row?.image_url) return unavailable(404);
    let url: URL;
    try {
      url = new URL(row.image_url);
    } catch {
      return unavailable(404);
    }
    if (!(await fileHostAllowed(ctx, url, ctx.channelCache.get(row.channel_id)?.baseUrl))) return unavailable(403);
    let response: Awaited<ReturnType<typeof sendUpstream>>;
    try {
      response = await sendUpstream(
        { method: 'GET', url: url.toString(), headers: {} },
        { timeoutMs: IMAGE_TIMEOUT_MS },
      );
    } catch {
      return unavailable(502);
    }
    if (response.statusCode !== 200) {
      await response.body.dump();
      return unavailable(response.statusCode === 404 ? 404 : 502);
    }
    const type = response.headers['content-type'];
    reply.header('content-type', typeof type === 'string' && type ? type : 'image/jpeg');
    // A finished image never changes; one still drawing does.
    reply.header('cache-control', row.status === 'SUCCESS' ? 'public, max-age=86400' : 'no-store');
    // Streamed through, never buffered: images can be large. Fastify pipes Node streams, hence the Readable.
    return reply.send(Readable.from(response.body, { objectMode: false }));
  };
}
