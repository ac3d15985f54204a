import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../context.js';
import { RelayError } from '../../errors.js';
import { lookupIds, openTaskRequest } from '../task-request.js';
import { sendSunoError } from './reply.js';
import { SUNO_PLATFORM } from './submit.js';
import { sunoTaskDto } from './view.js';

/** `GET /suno/fetch/{id}`: the caller's own task from the database (the poller keeps it current). */
export function sunoFetchOneHandler(ctx: AppContext) {
  return async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    const { lang, requestId, caller } = await openTaskRequest(ctx, request, reply);
    const row = await ctx.repos.tasks.findForUser(caller.user.id, [SUNO_PLATFORM], request.params.id);
    if (!row) {
      return sendSunoError(reply, RelayError.of(404, lang, 'task_not_found', undefined, 'task_not_exist'), requestId);
    }
    return { code: 'success', message: '', data: sunoTaskDto(row) };
  };
}

/** `POST /suno/fetch` `{ids:[…]}`: the caller's tasks among those ids. */
export function sunoFetchManyHandler(ctx: AppContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { lang, requestId, caller } = await openTaskRequest(ctx, request, reply);
    const ids = lookupIds(request.body, lang);
    if (ids instanceof RelayError) return sendSunoError(reply, ids, requestId);
    const rows = await ctx.repos.tasks.findManyForUser(caller.user.id, [SUNO_PLATFORM], ids);
    return { code: 'success', message: '', data: rows.map(sunoTaskDto) };
  };
}
