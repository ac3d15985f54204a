import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../context.js';
import type { NewMidjourney } from '../../../db/schema.js';
import { RelayError, redactChannelKeys } from '../../errors.js';
import { type Billing, refund, reserveQuota } from '../../reserve.js';
import { chargeTask, payerOf } from '../billing.js';
import { openTaskRequest } from '../task-request.js';
import { callTaskUpstream, joinUrl, submitWithRetry, TASK_SUBMIT_TIMEOUT_MS } from '../upstream.js';
import { clearModeFlags, type MjBody, resolveAction, type SubmitKind } from './actions.js';
import { isAcceptedCode, MJ_CODE, sendMjError } from './reply.js';
import { midjourneyStore } from './store.js';

const MIDJOURNEY_KINDS = ['midjourney'] as const;

interface SubmitAnswer {
  code?: unknown;
  description?: unknown;
  result?: unknown;
  properties?: unknown;
}

/** The body as the upstream should see it, after the operator's Mj* switches. */
function upstreamBody(ctx: AppContext, body: MjBody): MjBody {
  const copy: MjBody = { ...body };
  if (!ctx.options.bool('MjAccountFilterEnabled')) delete copy.accountFilter;
  if (!ctx.options.bool('MjNotifyEnabled')) delete copy.notifyHook;
  if (ctx.options.bool('MjModeClearEnabled') && typeof copy.prompt === 'string')
    copy.prompt = clearModeFlags(copy.prompt);
  return copy;
}

/** The stored row for a submit the upstream answered with 2xx (accepted or refused). */
function taskRow(
  action: string,
  prompt: string,
  body: MjBody,
  answer: SubmitAnswer,
  accepted: boolean,
  billing: Billing,
  channelId: number,
): NewMidjourney {
  const now = Date.now();
  const properties = answer.properties && typeof answer.properties === 'object' ? answer.properties : {};
  const row: NewMidjourney = {
    user_id: billing.caller.user.id,
    code: typeof answer.code === 'number' ? answer.code : 0,
    action,
    mj_id: accepted ? String(answer.result ?? '') : '',
    prompt,
    prompt_en: '',
    description: typeof answer.description === 'string' ? answer.description : '',
    state: typeof body.state === 'string' ? body.state : '',
    submit_time: now,
    status: accepted ? 'SUBMITTED' : 'FAILURE',
    progress: accepted ? '0%' : '100%',
    fail_reason: accepted ? '' : String(answer.description ?? ''),
    channel_id: channelId,
    quota: accepted ? billing.reserved : 0,
    properties: JSON.stringify({ ...properties, payer: payerOf(billing) }),
    created_at: Math.floor(now / 1000),
  };
  // "Already exists" may come with the finished result; uploads finish at submit.
  const existing = properties as { status?: unknown; imageUrl?: unknown };
  if (answer.code === MJ_CODE.Exists && existing.status === 'SUCCESS' && typeof existing.imageUrl === 'string') {
    Object.assign(row, {
      status: 'SUCCESS',
      progress: '100%',
      image_url: existing.imageUrl,
      start_time: now,
      finish_time: now,
    });
  }
  if (accepted && action === 'UPLOAD') Object.assign(row, { status: 'SUCCESS', progress: '100%', finish_time: now });
  return row;
}

/**
 * `POST /mj/submit/*` (and `/{mode}/mj/submit/*`): validate, reserve the action's fixed price, submit to a
 * Midjourney channel (a follow-up goes to the channel that holds the original task), record the task and charge
 * it; anything the upstream refuses is recorded as failed and costs nothing.
 */
export function midjourneySubmitHandler(ctx: AppContext, kind: SubmitKind) {
  const store = midjourneyStore(ctx.db);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const startedAt = performance.now();
    const { lang, requestId, caller } = await openTaskRequest(ctx, request, reply);
    let billing: Billing | null = null;
    try {
      const body = request.body;
      if (!body || typeof body !== 'object' || Array.isArray(body)) {
        throw RelayError.of(400, lang, 'relay_body_invalid', { reason: 'JSON object expected' }, 'invalid_request');
      }
      const mjBody = body as MjBody;
      const resolved = resolveAction(kind, mjBody);
      if (!resolved.ok) {
        throw resolved.field
          ? RelayError.of(400, lang, 'task_field_required', { field: resolved.field }, 'invalid_request')
          : RelayError.of(400, lang, 'task_action_invalid', { action: resolved.action ?? '' }, 'invalid_request');
      }
      let fixedChannelId: number | null = null;
      let prompt = typeof mjBody.prompt === 'string' ? mjBody.prompt : '';
      if (resolved.originTaskId) {
        const origin = await store.findForUser(caller.user.id, resolved.originTaskId);
        if (!origin) throw RelayError.of(400, lang, 'task_not_found', undefined, 'task_not_found');
        if (
          ctx.options.bool('MjActionCheckSuccessEnabled') &&
          resolved.action !== 'MODAL' &&
          origin.status !== 'SUCCESS'
        ) {
          throw RelayError.of(400, lang, 'task_origin_not_success', undefined, 'task_status_not_success');
        }
        fixedChannelId = origin.channel_id;
        prompt ||= origin.prompt ?? '';
      }
      const reserved = await reserveQuota(
        ctx,
        caller,
        { model: resolved.model, promptEstimate: 0, maxOutput: 0, promptText: () => prompt },
        lang,
      );
      billing = reserved;
      const outgoing = upstreamBody(ctx, mjBody);
      // The path goes upstream as called, mode prefix included (`/fast/mj/...` picks the upstream's speed).
      const path = request.url.split('?')[0]!;
      const { channel, answer } = await submitWithRetry(
        ctx,
        caller,
        { fixedChannelId, model: resolved.model, kinds: MIDJOURNEY_KINDS },
        lang,
        (target) =>
          callTaskUpstream(
            target,
            'POST',
            joinUrl(target.baseUrl, path),
            { 'mj-api-secret': target.key },
            outgoing,
            TASK_SUBMIT_TIMEOUT_MS,
          ),
      );
      if (answer.status < 200 || answer.status >= 300 || !answer.json || typeof answer.json !== 'object') {
        const detail = redactChannelKeys(
          String((answer.json as SubmitAnswer | null)?.description ?? answer.text.slice(0, 200)),
          channel,
        );
        // A refused channel key is the gateway's problem, not the caller's.
        const status =
          answer.status === 401 || answer.status === 403 ? 500 : answer.status >= 400 ? answer.status : 502;
        throw new RelayError(
          status,
          RelayError.of(status, lang, 'task_upstream_refused', { reason: `HTTP ${answer.status} ${String(detail)}` })
            .message,
          'upstream_error',
          'upstream_error',
        );
      }
      const submitted = answer.json as SubmitAnswer;
      const accepted =
        isAcceptedCode(submitted.code) && typeof submitted.result === 'string' && submitted.result !== '';
      // A follow-up (upscale, variation…) is shown with its original task's prompt.
      const row = taskRow(resolved.action, prompt, mjBody, submitted, accepted, reserved, channel.id);
      await ctx.repos.midjourneys.insert(row);
      if (!accepted) {
        billing = null;
        refund(ctx, reserved);
        return reply.code(200).send(submitted);
      }
      billing = null;
      chargeTask(ctx, reserved, channel, {
        action: resolved.action,
        taskId: row.mj_id ?? '',
        requestId,
        startedAt,
      });
      // "Already exists" is a success for the caller (family behaviour), except for the two window actions.
      const answerCode =
        submitted.code === MJ_CODE.Exists && resolved.action !== 'INPAINT' && resolved.action !== 'CUSTOM_ZOOM'
          ? MJ_CODE.Submitted
          : submitted.code;
      return reply.code(200).send({ ...submitted, code: answerCode });
    } catch (error) {
      if (billing) refund(ctx, billing);
      return sendMjError(reply, error, requestId);
    }
  };
}
