import { type Language, Role } from '@gateway/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sessionUser } from '../../../auth/guard.js';
import type { AppContext } from '../../../context.js';
import type { TaskRow } from '../../../db/schema.js';
import { nowSeconds } from '../../../db/sql-helpers.js';
import { languageOf } from '../../../http/envelope.js';
import { authenticateRelay } from '../../admission/authenticate.js';
import { RelayError } from '../../errors.js';
import { providerFor } from '../../providers/registry.js';
import { gatewayBase, openTaskRequest } from '../task-request.js';
import { callVendor } from '../vendor-call.js';
import { videoPlatforms } from './platforms.js';
import { pollVideoTask } from './poll.js';
import { sendFamilyTaskError } from './submit.js';
import { videoSecrets } from './task-record.js';
import { familyVideoTask, openAiVideo } from './views.js';

/** A client's read refreshes an unfinished task from its vendor at most this often (the poller does the rest). */
const REFRESH_AFTER_MS = 2_000;
/** Tasks remembered for that purpose on this node; the oldest are forgotten first. */
const REMEMBERED = 10_000;
const lastRefresh = new Map<string, number>();

/** Whether a read may ask the vendor now: never for this task on this node, or not in the last two seconds. */
function refreshDue(taskId: string): boolean {
  const now = Date.now();
  const last = lastRefresh.get(taskId);
  if (last !== undefined && now - last < REFRESH_AFTER_MS) return false;
  lastRefresh.delete(taskId);
  lastRefresh.set(taskId, now);
  if (lastRefresh.size > REMEMBERED) lastRefresh.delete(lastRefresh.keys().next().value!);
  return true;
}

type IdParams = { Params: { task_id: string } };

/** Someone else's task, or a deleted one, answers like a missing one: ids cannot be probed. */
export const videoNotFound = (lang: Language) =>
  RelayError.of(404, lang, 'task_not_found', undefined, 'task_not_exist');

/** The caller's own video task, brought up to date from the vendor when it is unfinished and not just asked. */
export async function ownVideoTask(ctx: AppContext, userId: number, taskId: string): Promise<TaskRow | undefined> {
  const row = await ctx.repos.tasks.findForUser(userId, videoPlatforms(), taskId);
  if (!row || videoSecrets(row).deleted) return undefined;
  const finished = row.status === 'SUCCESS' || row.status === 'FAILURE';
  if (finished || !refreshDue(row.task_id)) return row;
  try {
    if (await pollVideoTask(ctx, row)) return (await ctx.repos.tasks.findById(row.id)) ?? row;
  } catch {
    // The stored state is still an answer; the poller tries again.
  }
  return row;
}

/** `GET /v1/videos/{id}`: the video as OpenAI's Videos API describes it. */
export function openAiVideoHandler(ctx: AppContext) {
  return async (request: FastifyRequest<IdParams>, reply: FastifyReply) => {
    const { lang, caller } = await openTaskRequest(ctx, request, reply);
    const row = await ownVideoTask(ctx, caller.user.id, request.params.task_id);
    if (!row) throw videoNotFound(lang);
    return openAiVideo(row, gatewayBase(ctx, request));
  };
}

/**
 * `GET /v1/video/generations/{task_id}` (and Kling's and Jimeng's native reads): the family's
 * `{code, message, data: TaskDto}`. `idOf` finds the id where the route carries it (path, or Jimeng's body).
 */
export function familyVideoHandler(
  ctx: AppContext,
  idOf: (request: FastifyRequest) => string = (request) => (request.params as { task_id: string }).task_id,
) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { lang, requestId, caller } = await openTaskRequest(ctx, request, reply);
    const row = await ownVideoTask(ctx, caller.user.id, idOf(request));
    if (!row) return sendFamilyTaskError(reply, videoNotFound(lang), requestId);
    return { code: 'success', message: '', data: familyVideoTask(row, gatewayBase(ctx, request)) };
  };
}

/** `GET /v1/videos?after=&limit=&order=`: the caller's videos as OpenAI's cursor page. */
export function openAiVideoListHandler(ctx: AppContext) {
  return async (request: FastifyRequest<{ Querystring: Record<string, string | undefined> }>, reply: FastifyReply) => {
    const { caller } = await openTaskRequest(ctx, request, reply);
    const query = request.query;
    const limit = Math.min(100, Math.max(1, Number.parseInt(query.limit ?? '20', 10) || 20));
    const order = query.order === 'asc' ? 'asc' : 'desc';
    let afterRowId: number | null = null;
    if (query.after) {
      const after = await ctx.repos.tasks.findForUser(caller.user.id, videoPlatforms(), query.after);
      afterRowId = after ? after.id : null;
    }
    const rows = await ctx.repos.tasks.pageForUser(caller.user.id, videoPlatforms(), {
      afterRowId,
      limit: limit + 1,
      order,
    });
    const page = rows.filter((row) => !videoSecrets(row).deleted).slice(0, limit);
    const base = gatewayBase(ctx, request);
    const data = page.map((row) => openAiVideo(row, base));
    return {
      object: 'list',
      data,
      first_id: data[0]?.id ?? null,
      last_id: data.at(-1)?.id ?? null,
      has_more: rows.length > limit,
    };
  };
}

/**
 * `DELETE /v1/videos/{id}`: a finished video is deleted at the vendor where it can be, and forgotten here (reads
 * answer 404). The row stays for the usage history; a video still being made cannot be deleted.
 */
export function deleteVideoHandler(ctx: AppContext) {
  return async (request: FastifyRequest<IdParams>, reply: FastifyReply) => {
    const { lang, caller } = await openTaskRequest(ctx, request, reply);
    const row = await ownVideoTask(ctx, caller.user.id, request.params.task_id);
    if (!row) throw videoNotFound(lang);
    if (row.status !== 'SUCCESS' && row.status !== 'FAILURE') {
      throw RelayError.of(400, lang, 'video_still_running', undefined, 'invalid_request');
    }
    const secrets = videoSecrets(row);
    const channel = ctx.channelCache.get(row.channel_id);
    const provider = channel ? providerFor(channel.type) : undefined;
    const remove = provider?.functions.video?.remove;
    if (channel && provider && remove && secrets.upstream_task_id) {
      // Best effort: the vendor keeps files for a limited time anyway, and the client's delete must not hang on it.
      await callVendor(provider, channel, remove(channel, secrets.upstream_task_id), 10_000).catch(() => null);
    }
    await ctx.repos.tasks.update(row.id, {
      private_data: JSON.stringify({ ...secrets, deleted: true }),
      updated_at: nowSeconds(),
    });
    return { id: row.task_id, object: 'video.deleted', deleted: true };
  };
}

/**
 * Who may download a task's file: an API key's owner, or a console user by the session cookie alone (a `<video>`
 * element sends nothing else) — the owner, or an admin looking at every user's tasks.
 */
export async function contentReader(
  ctx: AppContext,
  request: FastifyRequest,
): Promise<{ lang: Language; userId: number | null; admin: boolean }> {
  const lang = languageOf(request);
  if (request.headers.authorization || request.headers['x-api-key']) {
    const caller = await authenticateRelay(ctx, request, lang);
    return { lang, userId: caller.user.id, admin: false };
  }
  const user = await sessionUser(ctx, request);
  if (!user) throw RelayError.of(401, lang, 'relay_token_missing');
  return { lang, userId: user.id, admin: user.role >= Role.Admin };
}
