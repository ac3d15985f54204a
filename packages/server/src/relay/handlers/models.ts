import { channelType } from '@gateway/shared';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { languageOf } from '../../http/envelope.js';
import { userSetting } from '../../services/accounts/user-setting.js';
import { authenticateRelay } from '../admission/authenticate.js';
import type { RelayCaller } from '../admission/caller.js';
import { RelayError } from '../errors.js';
import { isPriced } from '../pricing.js';

// Model list entries need a creation time; a fixed one keeps answers stable between calls.
const CREATED = 1_700_000_000;

/** Models the caller can actually use: served in its group, allowed by the token, and priced (or accepted unpriced). */
export function usableModels(ctx: AppContext, caller: RelayCaller): string[] {
  const acceptUnset =
    ctx.options.bool('SelfUseModeEnabled') || userSetting(caller.user).accept_unset_model_ratio_model === true;
  return ctx.channelCache
    .modelsIn([caller.group])
    .filter((model) => !caller.modelLimits || caller.modelLimits.has(model))
    .filter((model) => acceptUnset || isPriced(ctx.options, model));
}

function entry(ctx: AppContext, caller: RelayCaller, model: string) {
  const channel = ctx.channelCache.candidates(caller.group, model)[0];
  return {
    id: model,
    object: 'model',
    created: CREATED,
    owned_by: channel ? (channelType(channel.type)?.adaptor ?? 'custom') : 'custom',
  };
}

export async function listModels(ctx: AppContext, request: FastifyRequest) {
  const caller = await authenticateRelay(ctx, request, languageOf(request));
  return { object: 'list', data: usableModels(ctx, caller).map((model) => entry(ctx, caller, model)) };
}

export async function retrieveModel(ctx: AppContext, request: FastifyRequest) {
  const lang = languageOf(request);
  const caller = await authenticateRelay(ctx, request, lang);
  const model = (request.params as { model: string }).model;
  if (!usableModels(ctx, caller).includes(model)) {
    throw new RelayError(404, `The model '${model}' does not exist`, 'invalid_request_error', 'model_not_found');
  }
  return entry(ctx, caller, model);
}
