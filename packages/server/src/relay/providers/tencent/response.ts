import type { ChatResponse, UpstreamError } from '../../types.js';
import { readUpstreamError } from '../errors.js';
import { textCompletion, usageOf } from '../text-chat.js';

interface HunyuanUsage {
  PromptTokens?: number;
  CompletionTokens?: number;
  TotalTokens?: number;
}

/** One answer, or one stream event (which carries `Delta` instead of `Message`). */
export interface HunyuanAnswer {
  Id?: string;
  Choices?: Array<{
    FinishReason?: string;
    Message?: { Content?: string; ReasoningContent?: string };
    Delta?: { Content?: string; ReasoningContent?: string };
  }>;
  Usage?: HunyuanUsage;
  Error?: { Code?: string; Message?: string };
}

export function hunyuanUsage(usage: HunyuanUsage | undefined) {
  if (!usage) return null;
  return usageOf(usage.PromptTokens ?? 0, usage.CompletionTokens ?? 0, usage.TotalTokens);
}

export const hunyuanFinish = (reason: string | undefined) =>
  reason === 'sensitive' ? 'content_filter' : reason === 'tool_calls' || reason === 'length' ? reason : 'stop';

/** Tencent wraps every API 3.0 answer in `Response`. */
export function fromHunyuanAnswer(json: Record<string, unknown>, model: string): ChatResponse {
  const answer = (json.Response ?? {}) as HunyuanAnswer;
  const choice = answer.Choices?.[0];
  return textCompletion({
    id: `chatcmpl-${answer.Id ?? Date.now()}`,
    model,
    content: choice?.Message?.Content ?? '',
    reasoning: choice?.Message?.ReasoningContent,
    finishReason: hunyuanFinish(choice?.FinishReason),
    usage: hunyuanUsage(answer.Usage),
  });
}

/**
 * API 3.0 answers refusals with HTTP 200 and `Response.Error`; its code's family says what went wrong: the
 * credentials or signature, the account's rights or balance, a limit, or Tencent's side.
 */
export function hunyuanRefusalStatus(json: Record<string, unknown>): number | null {
  const code = ((json.Response ?? {}) as HunyuanAnswer).Error?.Code;
  if (!code) return null;
  const family = code.split('.')[0]!;
  if (family === 'AuthFailure') return 401;
  if (family === 'UnauthorizedOperation' || family === 'ResourceUnavailable' || family === 'ResourceInsufficient') {
    return 403;
  }
  if (family === 'RequestLimitExceeded' || family === 'LimitExceeded') return 429;
  if (family === 'InternalError' || family === 'FailedOperation') return 500;
  return 400;
}

export function hunyuanError(status: number, text: string): UpstreamError {
  try {
    const error = (JSON.parse(text) as { Response?: HunyuanAnswer }).Response?.Error;
    if (error?.Code) return { status, message: error.Message ?? error.Code, type: 'tencent_error', code: error.Code };
  } catch {
    // another shape: read below
  }
  return readUpstreamError(status, text);
}
