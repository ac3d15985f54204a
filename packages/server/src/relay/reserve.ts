import {
  BillingSource,
  type Language,
  normalizeBillingPreference,
  perCallQuota,
  preConsumeQuota,
} from '@gateway/shared';
import type { ReserveFailure } from '../billing/ledger.js';
import type { AppContext } from '../context.js';
import { userSetting } from '../services/accounts/user-setting.js';
import type { RelayCaller } from './admission/caller.js';
import { RelayError } from './errors.js';
import { groupRatio, type ModelPricing, modelPricing } from './pricing.js';
import { findSensitiveWord } from './sensitive.js';

/** A request's price and what was reserved for it; settled (or refunded) exactly once. */
export interface Billing {
  caller: RelayCaller;
  model: string;
  pricing: ModelPricing;
  groupRatio: number;
  reserved: number;
  /** Per-call prices multiply by this (images: n). */
  callCount: number;
  /** The subscription the reservation was taken from (null: the wallet); settled and refunded there. */
  subscriptionId: number | null;
}

export interface ReserveInput {
  model: string;
  promptEstimate: number;
  maxOutput: number;
  callCount?: number;
  /** The prompt's text, for the sensitive-word check (built only when the check is on). */
  promptText?: () => string;
  /** Reserve only from this source (a realtime session's later responses: where its first one was reserved). */
  source?: number | null;
}

function refuse(failure: ReserveFailure | null, lang: Language): void {
  if (failure === null) return;
  if (failure === 'user_quota')
    throw RelayError.of(403, lang, 'relay_user_quota', undefined, 'insufficient_user_quota');
  if (failure === 'subscription_quota')
    throw RelayError.of(403, lang, 'relay_subscription_quota', undefined, 'insufficient_user_quota');
  if (failure === 'token_exhausted') throw RelayError.of(401, lang, 'relay_token_exhausted');
  if (failure === 'token_quota') {
    throw RelayError.of(403, lang, 'relay_token_quota', undefined, 'pre_consume_token_quota_failed');
  }
}

/**
 * No channel can take the request: a 404 `model_not_found` when no channel of the group lists the model at all (SDKs
 * do not retry a 404: asking again cannot help), a 503 when its channels exist but are disabled or all failed now.
 */
export function noChannelError(ctx: AppContext, group: string, model: string, lang: Language): RelayError {
  if (!ctx.channelCache.listsModel(group, model)) {
    return RelayError.of(404, lang, 'relay_model_not_found', { group, model }, 'model_not_found');
  }
  return RelayError.of(503, lang, 'relay_channels_unavailable', { group, model }, 'no_available_channel');
}

/**
 * Prices the request and reserves its estimated cost on the user and the token: in memory (one node, returns at
 * once) or in Redis when nodes share balances (returns a promise). Callers await either.
 */
export function reserveQuota(
  ctx: AppContext,
  caller: RelayCaller,
  input: ReserveInput,
  lang: Language,
): Billing | Promise<Billing> {
  if (caller.modelLimits && !caller.modelLimits.has(input.model)) {
    throw RelayError.of(403, lang, 'relay_model_forbidden', { model: input.model }, 'model_not_allowed');
  }
  const word = input.promptText ? findSensitiveWord(ctx.options, input.promptText) : null;
  if (word) throw RelayError.of(400, lang, 'relay_sensitive_words', { word }, 'sensitive_words_detected');
  const acceptUnset = userSetting(caller.user).accept_unset_model_ratio_model === true;
  const pricing = modelPricing(ctx.options, input.model, acceptUnset);
  if (!pricing) {
    // A model no channel serves has no price either: say what is really missing.
    if (ctx.channelCache.candidates(caller.group, input.model).length === 0 && caller.pinnedChannelId === null) {
      throw noChannelError(ctx, caller.group, input.model, lang);
    }
    throw RelayError.of(400, lang, 'relay_model_unpriced', { model: input.model }, 'model_price_error');
  }
  const ratio = groupRatio(ctx.options, caller.group);
  const callCount = input.callCount ?? 1;
  const reserved =
    pricing.kind === 'call'
      ? perCallQuota(pricing.price, ratio, ctx.options.number('QuotaPerUnit'), callCount)
      : preConsumeQuota(
          input.promptEstimate,
          input.maxOutput,
          ctx.options.number('PreConsumedQuota'),
          pricing.modelRatio,
          ratio,
        );
  // The user's billing preference picks the source: a subscription's period quota or the wallet (billing/ledger.ts).
  const reservation = ctx.ledger.reserveFor(
    caller.user.id,
    caller.token.id || null,
    reserved,
    caller.token.unlimited_quota === 1,
    normalizeBillingPreference(userSetting(caller.user).billing_preference),
    input.source,
  );
  const billed = (subscriptionId: number | null): Billing => ({
    caller,
    model: input.model,
    pricing,
    groupRatio: ratio,
    reserved,
    callCount,
    subscriptionId,
  });
  if (reservation instanceof Promise) {
    return reservation.then((result) => {
      refuse(result.failure, lang);
      return billed(result.subscriptionId);
    });
  }
  refuse(reservation.failure, lang);
  return billed(reservation.subscriptionId);
}

export function refund(ctx: AppContext, billing: Billing): void {
  const { caller } = billing;
  ctx.ledger.refund(
    caller.user.id,
    caller.token.id || null,
    billing.reserved,
    caller.token.unlimited_quota === 1,
    billing.subscriptionId,
  );
}

/** The usage log's record of who paid (the family's `other.billing_source` and subscription id). */
export function billingFacts(subscriptionId: number | null): Record<string, unknown> {
  return subscriptionId === null
    ? { billing_source: BillingSource.Wallet }
    : { billing_source: BillingSource.Subscription, subscription_id: subscriptionId };
}
