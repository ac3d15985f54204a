import type { AppContext } from '../../../context.js';
import type { NewMidjourney } from '../../../db/schema.js';
import type { Endpoint } from '../../endpoint.js';
import { RelayError } from '../../errors.js';
import type { Billing } from '../../reserve.js';
import { payerOf } from '../billing.js';
import { clearModeFlags, type MjBody, resolveAction, type SubmitKind } from './actions.js';
import { isAcceptedCode, MJ_CODE, sendMjError } from './reply.js';

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

interface MjSubmit {
  action: string;
  prompt: string;
  mjBody: MjBody;
  outgoing: MjBody;
  path: string;
}

/**
 * `POST /mj/submit/*` (and `/{mode}/mj/submit/*`) on the conveyor: validate, price the action, submit to a
 * Midjourney channel (a follow-up goes to the channel that holds the original task), record the task; an accepted
 * task is charged its reserved price, anything the upstream refuses is recorded as failed and costs nothing.
 */
export function midjourneySubmitEndpoint(ctx: AppContext, kind: SubmitKind): Endpoint<MjSubmit> {
  const store = ctx.repos.midjourneys;
  return {
    modelRequest: false,
    serves: (provider) => provider.functions.midjourney !== undefined,
    answerError: sendMjError,
    async parse(request, lang, caller) {
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
        // A follow-up (upscale, variation…) is shown with its original task's prompt.
        prompt ||= origin.prompt ?? '';
      }
      return {
        model: resolved.model,
        stream: false,
        // The path goes upstream as called, mode prefix included (`/fast/mj/...` picks the upstream's speed).
        body: {
          action: resolved.action,
          prompt,
          mjBody,
          outgoing: upstreamBody(ctx, mjBody),
          path: request.url.split('?')[0]!,
        },
        reserve: { promptEstimate: 0, maxOutput: 0, promptText: () => prompt },
        countPrompt: async () => 0,
        headers: request.headers,
        fixedChannelId,
      };
    },
    plan(provider, channel, request) {
      const submit = provider.functions.midjourney;
      if (!submit) return null;
      const { action, prompt, mjBody, outgoing, path } = request.body;
      return {
        call: submit.call(channel, path, outgoing),
        paramOverride: false,
        read: {
          kind: 'task',
          async accept(json, on) {
            const submitted = json as SubmitAnswer;
            const accepted =
              isAcceptedCode(submitted.code) && typeof submitted.result === 'string' && submitted.result !== '';
            const row = taskRow(action, prompt, mjBody, submitted, accepted, on.billing, on.channel.id);
            await ctx.repos.midjourneys.insert(row);
            if (!accepted) return { body: submitted, charged: null };
            // "Already exists" is a success for the caller (family behaviour), except for the two window actions.
            const code =
              submitted.code === MJ_CODE.Exists && action !== 'INPAINT' && action !== 'CUSTOM_ZOOM'
                ? MJ_CODE.Submitted
                : submitted.code;
            return { body: { ...submitted, code }, charged: { action, taskId: row.mj_id ?? '' } };
          },
        },
      };
    },
  };
}
