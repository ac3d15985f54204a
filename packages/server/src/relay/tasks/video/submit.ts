import { perCallQuota } from '@gateway/shared';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../../context.js';
import { nowSeconds } from '../../../db/sql-helpers.js';
import type { Endpoint } from '../../endpoint.js';
import { RelayError, redactChannelKeys } from '../../errors.js';
import { ConversionError } from '../../formats/openai-chat/conversion-error.js';
import type { VideoRequest } from '../../video-types.js';
import { payerOf } from '../billing.js';
import { type Fields, readVideoRequest } from './read-request.js';
import { newPublicTaskId, type VideoFacts, type VideoSecrets, videoAction } from './task-record.js';
import { openAiVideo } from './views.js';

/** The reservation's length when the client names none: a typical default among vendors (Kling, Vidu, Seedance). */
const ESTIMATE_SECONDS = 5;

/** The routes that submit videos, each answering in its clients' shape. */
export type VideoRoute = 'openai' | 'family';

const productOf = (ratios: Record<string, number>) =>
  Object.values(ratios).reduce((product, ratio) => product * (Number.isFinite(ratio) && ratio > 0 ? ratio : 1), 1);

interface VideoSubmit {
  video: VideoRequest;
  /** The public id, made once so a retry on another channel keeps it. */
  taskId: string;
  /** The vendor's billing ratios on the channel the plan chose (set in `plan`, read in `accept`). */
  ratios?: Record<string, number>;
}

/** The family's task errors read `{code, message, data}`; its video route answers refusals that way. */
export function sendFamilyTaskError(reply: FastifyReply, error: RelayError, requestId: string): FastifyReply {
  return reply.code(error.status).send({
    code: error.code ?? 'new_api_error',
    message: `${error.message} (request id: ${requestId})`,
    data: null,
  });
}

/**
 * Submits a video on the conveyor (authenticate → price → reserve → pick → send → read): any channel whose provider
 * makes videos and lists the model may take it. The reservation covers the asked length at the model's price; the
 * vendor's own ratios (seconds, size or resolution) decide the charge once a channel accepted, and a refusal costs
 * nothing. The task is stored under a public id; the vendor's id never reaches the client.
 */
export function videoSubmitEndpoint(
  ctx: AppContext,
  route: VideoRoute,
  dialect?: (fields: Fields) => Fields,
): Endpoint<VideoSubmit> {
  return {
    modelRequest: false,
    serves: (provider) => provider.functions.video !== undefined,
    ...(route === 'family' ? { answerError: sendFamilyTaskError } : {}),
    parse(request, lang) {
      const video = readVideoRequest(request, lang, route === 'openai' ? 'sora-2' : undefined, dialect);
      return {
        model: video.model,
        stream: false,
        body: { video, taskId: newPublicTaskId() },
        reserve: {
          promptEstimate: 0,
          maxOutput: 0,
          callCount: video.seconds ?? ESTIMATE_SECONDS,
          promptText: () => video.prompt,
        },
        countPrompt: async () => 0,
        headers: request.headers,
      };
    },
    plan(provider, channel, request, upstreamModel) {
      const vendor = provider.functions.video;
      if (!vendor) return null;
      const { video } = request.body;
      const field = vendor.unsupported(video, upstreamModel);
      if (field) {
        // Another channel's vendor may make it; when none can, the client reads which parameter stood in the way.
        throw new ConversionError(field, { code: 'video_param_unsupported', params: { model: video.model, field } });
      }
      const ratios = vendor.ratios(video, upstreamModel);
      request.body.ratios = ratios;
      return {
        call: vendor.submit(channel, video, upstreamModel),
        paramOverride: false,
        read: {
          kind: 'task',
          async accept(json, on) {
            const submitted = vendor.readSubmit(json);
            if ('refused' in submitted) {
              throw RelayError.worded(
                400,
                on.lang,
                { code: 'task_upstream_refused', params: { reason: redactChannelKeys(submitted.refused, on.channel) } },
                'invalid_request_error',
                'fail_to_submit',
              );
            }
            const { billing } = on;
            const units = productOf(ratios);
            const qpu = ctx.options.number('QuotaPerUnit');
            const unitQuota =
              billing.pricing.kind === 'call' ? perCallQuota(billing.pricing.price, billing.groupRatio, qpu) : 0;
            // A token-priced model (a ModelRatio, no ModelPrice) on a vendor that bills tokens (Seedance) is charged
            // the vendor's estimate now and settled by its own count at the end; elsewhere it keeps the reservation.
            const perToken =
              billing.pricing.kind === 'tokens' && vendor.estimateTokens
                ? billing.pricing.modelRatio * billing.groupRatio
                : 0;
            const quota =
              billing.pricing.kind === 'call'
                ? perCallQuota(billing.pricing.price, billing.groupRatio, qpu, units)
                : perToken > 0
                  ? Math.round((vendor.estimateTokens?.(video, upstreamModel) ?? 0) * perToken)
                  : billing.reserved;
            const now = nowSeconds();
            const facts: VideoFacts = {
              seconds: video.seconds ?? (ratios.seconds ? Math.round(ratios.seconds) : null),
              size: video.size,
              resolution: video.resolution,
              aspect_ratio: video.aspectRatio,
            };
            const secrets: VideoSecrets = {
              payer: payerOf(billing),
              upstream_task_id: submitted.upstreamId,
              upstream_model: upstreamModel,
              ratios,
              unit_quota: unitQuota,
              ...(perToken > 0 ? { quota_per_token: perToken } : {}),
            };
            const taskId = request.body.taskId;
            await ctx.repos.tasks.insert({
              task_id: taskId,
              platform: String(on.channel.type),
              user_id: billing.caller.user.id,
              group: billing.caller.group,
              channel_id: on.channel.id,
              quota,
              action: videoAction(video),
              status: 'SUBMITTED',
              progress: '0%',
              submit_time: now,
              created_at: now,
              updated_at: now,
              properties: JSON.stringify({
                origin_model_name: video.model,
                upstream_model_name: upstreamModel,
                input: video.prompt,
              }),
              private_data: JSON.stringify(secrets),
              data: JSON.stringify(facts),
            });
            const row = await ctx.repos.tasks.findForUser(billing.caller.user.id, [String(on.channel.type)], taskId);
            // Just submitted: the view has no link to a file yet, so it needs no address of this gateway.
            const body = row ? openAiVideo(row, '') : { id: taskId, task_id: taskId };
            return { body, charged: { action: videoAction(video), taskId, quota, ratios } };
          },
        },
      };
    },
  };
}
