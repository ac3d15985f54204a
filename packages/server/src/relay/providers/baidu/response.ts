import type { ChatResponse, UpstreamError } from '../../types.js';
import { readUpstreamError } from '../errors.js';
import { textCompletion, usageOf } from '../text-chat.js';

interface BaiduUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

export interface BaiduAnswer {
  id?: string;
  result?: string;
  is_end?: boolean;
  finish_reason?: string;
  usage?: BaiduUsage;
  error_code?: number;
  error_msg?: string;
}

const FINISH: Record<string, string> = {
  normal: 'stop',
  stop: 'stop',
  length: 'length',
  content_filter: 'content_filter',
  function_call: 'tool_calls',
};

export const baiduFinish = (reason: string | undefined) => (reason && FINISH[reason]) || 'stop';

/** Baidu's usage; a stream's completion is what the total adds to the prompt (its chunks may omit it). */
export function baiduUsage(usage: BaiduUsage | undefined) {
  if (!usage?.total_tokens) return null;
  const prompt = usage.prompt_tokens ?? 0;
  return usageOf(prompt, usage.completion_tokens ?? usage.total_tokens - prompt, usage.total_tokens);
}

export function fromBaiduAnswer(json: Record<string, unknown>, model: string): ChatResponse {
  const answer = json as BaiduAnswer;
  return textCompletion({
    id: `chatcmpl-${answer.id ?? Date.now()}`,
    model,
    content: answer.result ?? '',
    finishReason: baiduFinish(answer.finish_reason),
    usage: baiduUsage(answer.usage),
  });
}

interface BaiduEmbeddings {
  data?: Array<{ embedding?: number[]; index?: number }>;
  usage?: BaiduUsage;
}

export function fromBaiduEmbeddings(json: Record<string, unknown>, model: string): Record<string, unknown> {
  const answer = json as BaiduEmbeddings;
  const prompt = answer.usage?.prompt_tokens ?? answer.usage?.total_tokens ?? 0;
  return {
    object: 'list',
    data: (answer.data ?? []).map((item, position) => ({
      object: 'embedding',
      index: item.index ?? position,
      embedding: item.embedding ?? [],
    })),
    model,
    usage: { prompt_tokens: prompt, total_tokens: answer.usage?.total_tokens ?? prompt },
  };
}

// Baidu's error codes (HTTP 200 with error_code): the access token (13, 14, 100, 110, 111), the app's rights (6),
// its rate, daily and total limits (4, 17, 18, 19, 336501, 336502), and Baidu's own failures.
const UNAUTHORISED = new Set([13, 14, 100, 110, 111]);
const LIMITED = new Set([4, 17, 18, 19, 336501, 336502]);

export function baiduRefusalStatus(json: Record<string, unknown>): number | null {
  const code = (json as BaiduAnswer).error_code;
  if (code === undefined || code === 0) return null;
  if (UNAUTHORISED.has(code)) return 401;
  if (code === 6) return 403;
  if (LIMITED.has(code)) return 429;
  if (code === 1 || code === 2 || code === 336000 || code === 336100) return 500;
  return 400;
}

export function baiduError(status: number, text: string): UpstreamError {
  try {
    const answer = JSON.parse(text) as BaiduAnswer & { error?: string; error_description?: string };
    if (typeof answer.error_msg === 'string') {
      return { status, message: answer.error_msg, type: 'baidu_error', code: String(answer.error_code ?? '') || null };
    }
    // The token endpoint's refusal: `{error: "invalid_client", error_description: "unknown client id"}`.
    if (typeof answer.error === 'string') {
      return { status, message: answer.error_description ?? answer.error, type: 'baidu_error', code: answer.error };
    }
  } catch {
    // another shape: read below
  }
  return readUpstreamError(status, text);
}
