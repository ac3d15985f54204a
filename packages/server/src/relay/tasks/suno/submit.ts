import type { AppContext } from '../../../context.js';
import { nowSeconds } from '../../../db/sql-helpers.js';
import type { Endpoint } from '../../endpoint.js';
import { RelayError, redactChannelKeys } from '../../errors.js';
import { payerOf } from '../billing.js';
import { sendSunoError } from './reply.js';

export const SUNO_PLATFORM = 'suno';

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

interface SunoSubmit {
  action: 'music' | 'lyrics';
  body: SunoBody;
}

/**
 * `POST /suno/submit/{music|lyrics}` on the conveyor: price the action (`suno_music` / `suno_lyrics`), submit to
 * a Suno channel (continuing an earlier task goes to that task's channel), store the task and charge it. The
 * upstream's `{code:"success", data:"<task id>"}` goes back to the caller unchanged; a refusal costs nothing.
 */
export function sunoSubmitEndpoint(ctx: AppContext): Endpoint<SunoSubmit> {
  return {
    modelRequest: false,
    serves: (provider) => provider.functions.suno !== undefined,
    answerError: sendSunoError,
    async parse(request, lang, caller) {
      const requested = (request.params as { action: string }).action;
      const action = requested.toLowerCase();
      if (action !== 'music' && action !== 'lyrics') {
        throw RelayError.of(400, lang, 'task_action_invalid', { action: requested }, 'invalid_action');
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
        const origin = await ctx.repos.tasks.findForUser(caller.user.id, [SUNO_PLATFORM], text(sunoBody.task_id));
        if (!origin) throw RelayError.of(400, lang, 'task_not_found', undefined, 'task_not_found');
        fixedChannelId = origin.channel_id;
      }
      const prompt = `${text(sunoBody.prompt)}\n${text(sunoBody.gpt_description_prompt)}`;
      return {
        model: `suno_${action}`,
        stream: false,
        body: { action, body: sunoBody },
        reserve: { promptEstimate: 0, maxOutput: 0, promptText: () => prompt },
        countPrompt: async () => 0,
        headers: request.headers,
        fixedChannelId,
      };
    },
    plan(provider, channel, request) {
      const submit = provider.functions.suno;
      if (!submit) return null;
      const { action, body } = request.body;
      return {
        call: submit.call(channel, `/suno/submit/${action}`, body),
        paramOverride: false,
        read: {
          kind: 'task',
          async accept(json, on) {
            const submitted = json as { code?: unknown; message?: unknown; data?: unknown };
            const taskId = typeof submitted.data === 'string' ? submitted.data : '';
            if (submitted.code !== 'success' || !taskId) {
              const reason = redactChannelKeys(String(submitted.message ?? ''), on.channel);
              throw RelayError.worded(
                500,
                on.lang,
                { code: 'task_upstream_refused', params: { reason } },
                'upstream_error',
                typeof submitted.code === 'string' ? submitted.code : 'fail_to_submit',
              );
            }
            const now = nowSeconds();
            const caller = on.billing.caller;
            await ctx.repos.tasks.insert({
              task_id: taskId,
              platform: SUNO_PLATFORM,
              user_id: caller.user.id,
              group: caller.group,
              channel_id: on.channel.id,
              quota: on.billing.reserved,
              action: action.toUpperCase(),
              status: 'SUBMITTED',
              progress: '0%',
              submit_time: now,
              created_at: now,
              updated_at: now,
              properties: JSON.stringify({ origin_model_name: request.model, input: text(body.prompt) }),
              private_data: JSON.stringify({ payer: payerOf(on.billing) }),
            });
            return { body: submitted, charged: { action: action.toUpperCase(), taskId } };
          },
        },
      };
    },
  };
}
