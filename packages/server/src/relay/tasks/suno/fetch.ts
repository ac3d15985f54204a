import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../context.js';
import { languageOf } from '../../../http/envelope.js';
import { authenticateRelay } from '../../auth.js';
import { RelayError } from '../../errors.js';
import { sendSunoError } from './reply.js';
import { asyncTaskStore } from './store.js';
import { SUNO_PLATFORM } from './submit.js';
import { sunoTaskDto } from './view.js';

// One lookup answers at most this many ids (the family's TASK_QUERY_LIMIT default), so a huge list cannot stall it.
const MAX_IDS = 1000;

/** `GET /suno/fetch/{id}`: the caller's own task from the database (the poller keeps it current). */
export function sunoFetchOneHandler(ctx: AppContext) {
  const store = asyncTaskStore(ctx.db);
  return async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    const lang = languageOf(request);
    const requestId = String(request.id);
    reply.header('X-Oneapi-Request-Id', requestId);
    const caller = await authenticateRelay(ctx, request, lang);
    const row = await store.findForUser(caller.user.id, SUNO_PLATFORM, request.params.id);
    if (!row) {
      return sendSunoError(reply, RelayError.of(404, lang, 'task_not_found', undefined, 'task_not_exist'), requestId);
    }
    return { code: 'success', message: '', data: sunoTaskDto(row) };
  };
}

/** `POST /suno/fetch` `{ids:[…]}`: the caller's tasks among those ids. */
export function sunoFetchManyHandler(ctx: AppContext) {
  const store = asyncTaskStore(ctx.db);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const lang = languageOf(request);
    const requestId = String(request.id);
    reply.header('X-Oneapi-Request-Id', requestId);
    const caller = await authenticateRelay(ctx, request, lang);
    const ids = (request.body as { ids?: unknown } | null)?.ids;
    if (ids !== undefined && (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string'))) {
      return sendSunoError(
        reply,
        RelayError.of(400, lang, 'relay_body_invalid', { reason: 'ids must be a list of strings' }, 'invalid_request'),
        requestId,
      );
    }
    const rows = await store.findManyForUser(
      caller.user.id,
      SUNO_PLATFORM,
      ((ids as string[] | undefined) ?? []).slice(0, MAX_IDS),
    );
    return { code: 'success', message: '', data: rows.map(sunoTaskDto) };
  };
}
