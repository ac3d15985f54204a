import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../context.js';
import { nowSeconds } from '../../../db/sql-helpers.js';
import { RelayError, redactChannelKeys } from '../../errors.js';
import { type Billing, refund, reserveQuota } from '../../reserve.js';
import { chargeTask, payerOf } from '../billing.js';
import { openTaskRequest } from '../task-request.js';
import { callTaskUpstream, joinUrl, submitWithRetry, TASK_SUBMIT_TIMEOUT_MS } from '../upstream.js';
import { sendSunoError } from './reply.js';
import { asyncTaskStore } from './store.js';

export const SUNO_PLATFORM = 'suno';
const SUNO_KINDS = ['suno'] as const;

type SunoBody = Record<string, unknown> & {
  prompt?: unknown;
  gpt_description_prompt?: unknown;
  task_id?: unknown;
};

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** music needs a prompt or a description to write one; lyrics need a prompt. */
function missingField(action: 'music' | 'lyrics', body: SunoBody): string | null {
  if (action === 'lyrics') return text(body.prompt) ? null : 'prompt';
  return text(body.prompt) || text(body.gpt_description_prompt) ? null : 'prompt';
}

/**
 * `POST /suno/submit/{music|lyrics}`: reserve the action's price (`suno_music` / `suno_lyrics`), submit to a
 * Suno channel (continuing an earlier task goes to that task's channel), store the task and charge it. The
 * upstream's `{code:"success", data:"<task id>"}` goes back to the caller unchanged; a refusal costs nothing.
 */
export function sunoSubmitHandler(ctx: AppContext) {
  const store = asyncTaskStore(ctx.db);
  return async (request: FastifyRequest<{ Params: { action: string } }>, reply: FastifyReply) => {
    const startedAt = performance.now();
    const { lang, requestId, caller } = await openTaskRequest(ctx, request, reply);
    let billing: Billing | null = null;
    try {
      const action = request.params.action.toLowerCase();
      if (action !== 'music' && action !== 'lyrics') {
        throw RelayError.of(400, lang, 'task_action_invalid', { action: request.params.action }, 'invalid_action');
      }
      const body = request.body;
      if (!body || typeof body !== 'object' || Array.isArray(body)) {
        throw RelayError.of(400, lang, 'relay_body_invalid', { reason: 'JSON object expected' }, 'invalid_request');
      }
      const sunoBody = body as SunoBody;
      const missing = missingField(action, sunoBody);
      if (missing) throw RelayError.of(400, lang, 'task_field_required', { field: missing }, 'invalid_request');
      let fixedChannelId: number | null = null;
      if (text(sunoBody.task_id)) {
        const origin = await store.findForUser(caller.user.id, SUNO_PLATFORM, text(sunoBody.task_id));
        if (!origin) throw RelayError.of(400, lang, 'task_not_found', undefined, 'task_not_found');
        fixedChannelId = origin.channel_id;
      }
      const model = `suno_${action}`;
      const prompt = `${text(sunoBody.prompt)}\n${text(sunoBody.gpt_description_prompt)}`;
      const reserved = await reserveQuota(
        ctx,
        caller,
        { model, promptEstimate: 0, maxOutput: 0, promptText: () => prompt },
        lang,
      );
      billing = reserved;
      const { channel, answer } = await submitWithRetry(
        ctx,
        caller,
        { fixedChannelId, model, kinds: SUNO_KINDS },
        lang,
        (target) =>
          callTaskUpstream(
            target,
            'POST',
            joinUrl(target.baseUrl, `/suno/submit/${action}`),
            { authorization: `Bearer ${target.key}` },
            sunoBody,
            TASK_SUBMIT_TIMEOUT_MS,
          ),
      );
      const submitted = answer.json as { code?: unknown; message?: unknown; data?: unknown } | null;
      const taskId = typeof submitted?.data === 'string' ? submitted.data : '';
      if (answer.status < 200 || answer.status >= 300 || submitted?.code !== 'success' || !taskId) {
        const reason = redactChannelKeys(
          `${answer.status} ${String(submitted?.message ?? answer.text.slice(0, 200))}`.trim(),
          channel,
        );
        const status =
          answer.status === 401 || answer.status === 403 ? 500 : answer.status >= 400 ? answer.status : 500;
        throw new RelayError(
          status,
          RelayError.of(status, lang, 'task_upstream_refused', { reason }).message,
          'upstream_error',
          typeof submitted?.code === 'string' ? submitted.code : 'fail_to_submit',
        );
      }
      const now = nowSeconds();
      await ctx.repos.tasks.insert({
        task_id: taskId,
        platform: SUNO_PLATFORM,
        user_id: caller.user.id,
        group: caller.group,
        channel_id: channel.id,
        quota: reserved.reserved,
        action: action.toUpperCase(),
        status: 'SUBMITTED',
        progress: '0%',
        submit_time: now,
        created_at: now,
        updated_at: now,
        properties: JSON.stringify({ origin_model_name: model, input: text(sunoBody.prompt) }),
        private_data: JSON.stringify({ payer: payerOf(reserved) }),
      });
      billing = null;
      chargeTask(ctx, reserved, channel, { action: action.toUpperCase(), taskId, requestId, startedAt });
      return reply.code(200).send(submitted);
    } catch (error) {
      if (billing) refund(ctx, billing);
      return sendSunoError(reply, error, requestId);
    }
  };
}
