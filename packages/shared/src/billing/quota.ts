/**
 * Billing formulas (family semantics). Ratio 1 = $0.002 per 1K prompt tokens = 1 quota per token at
 * QuotaPerUnit 500000 ($1); every quota amount is a whole number.
 */

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens served from the provider's cache (included in promptTokens). */
  cachedTokens?: number;
  /** Prompt tokens written to the provider's cache (included in promptTokens). */
  cacheCreationTokens?: number;
}

export interface TokenPricing {
  modelRatio: number;
  completionRatio: number;
  cacheRatio: number;
  cacheCreationRatio: number;
  groupRatio: number;
}

/**
 * quota = (plain prompt + cached × cacheRatio + cache writes × cacheCreationRatio + completion × completionRatio)
 *         × modelRatio × groupRatio, rounded; a priced request that used tokens costs at least 1.
 */
export function tokenQuota(usage: TokenUsage, pricing: TokenPricing): number {
  const cached = Math.max(0, usage.cachedTokens ?? 0);
  const created = Math.max(0, usage.cacheCreationTokens ?? 0);
  const plainPrompt = Math.max(0, usage.promptTokens - cached - created);
  const weighted =
    plainPrompt +
    cached * pricing.cacheRatio +
    created * pricing.cacheCreationRatio +
    Math.max(0, usage.completionTokens) * pricing.completionRatio;
  const ratio = pricing.modelRatio * pricing.groupRatio;
  const quota = Math.round(weighted * ratio);
  if (ratio > 0 && weighted > 0 && quota < 1) return 1;
  return quota;
}

/** What a realtime response used, as its `response.done` usage splits it. */
export interface RealtimeUsage {
  textInput: number;
  audioInput: number;
  /** Cached prompt tokens of each kind (included in textInput / audioInput). */
  cachedText: number;
  cachedAudio: number;
  textOutput: number;
  audioOutput: number;
}

export interface RealtimePricing extends TokenPricing {
  /** Audio prompt tokens cost audioRatio × a text prompt token. */
  audioRatio: number;
  /** Audio completion tokens cost audioCompletionRatio × an audio prompt token. */
  audioCompletionRatio: number;
}

/**
 * A realtime response (family semantics, with cached prompt tokens at the cache ratio of their kind):
 * quota = (text in + cached text × cacheRatio + (audio in + cached audio × cacheRatio) × audioRatio
 *          + text out × completionRatio + audio out × audioRatio × audioCompletionRatio) × modelRatio × groupRatio.
 */
export function realtimeQuota(usage: RealtimeUsage, pricing: RealtimePricing): number {
  const cachedText = Math.min(Math.max(0, usage.cachedText), Math.max(0, usage.textInput));
  const cachedAudio = Math.min(Math.max(0, usage.cachedAudio), Math.max(0, usage.audioInput));
  const text = Math.max(0, usage.textInput) - cachedText + cachedText * pricing.cacheRatio;
  const audio = (Math.max(0, usage.audioInput) - cachedAudio + cachedAudio * pricing.cacheRatio) * pricing.audioRatio;
  const output =
    Math.max(0, usage.textOutput) * pricing.completionRatio +
    Math.max(0, usage.audioOutput) * pricing.audioRatio * pricing.audioCompletionRatio;
  const weighted = text + audio + output;
  const ratio = pricing.modelRatio * pricing.groupRatio;
  const quota = Math.round(weighted * ratio);
  if (ratio > 0 && weighted > 0 && quota < 1) return 1;
  return quota;
}

/** A fixed per-call price in dollars: quota = price × QuotaPerUnit × groupRatio (× n for several images). */
export function perCallQuota(priceUsd: number, groupRatio: number, quotaPerUnit: number, count = 1): number {
  return Math.round(priceUsd * quotaPerUnit * groupRatio * count);
}

/**
 * What to reserve before sending: (max(estimated prompt tokens, PreConsumedQuota) + max output tokens) at the
 * model's prompt rate.
 */
export function preConsumeQuota(
  estimatedPromptTokens: number,
  maxOutputTokens: number,
  preConsumedTokens: number,
  modelRatio: number,
  groupRatio: number,
): number {
  const tokens = Math.max(estimatedPromptTokens, preConsumedTokens) + Math.max(0, maxOutputTokens);
  return Math.round(tokens * modelRatio * groupRatio);
}

/** Dollars per 1M tokens as the pricing page shows them (spec 001 §9). */
export function pricePerMillion(modelRatio: number, completionRatio: number, groupRatio: number) {
  return {
    prompt: modelRatio * 2 * groupRatio,
    completion: modelRatio * completionRatio * 2 * groupRatio,
  };
}

/** ratio = price per 1M prompt tokens / 2; completion ratio = output price / input price. */
export function ratioFromPrice(inputPricePerMillion: number, outputPricePerMillion?: number) {
  const modelRatio = inputPricePerMillion / 2;
  const completionRatio =
    outputPricePerMillion === undefined || inputPricePerMillion === 0
      ? 1
      : outputPricePerMillion / inputPricePerMillion;
  return { modelRatio, completionRatio };
}

/** The family's ratio for unpriced models when self-use mode (or the user's setting) accepts them. */
export const UNSET_MODEL_RATIO = 37.5;
