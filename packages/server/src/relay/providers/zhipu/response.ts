import type { ChatResponse, UpstreamError } from '../../types.js';
import { readUpstreamError } from '../errors.js';
import { textCompletion, usageOf } from '../text-chat.js';

interface ZhipuUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

interface ZhipuAnswer {
  code?: number;
  msg?: string;
  success?: boolean;
  data?: { task_id?: string; choices?: Array<{ role?: string; content?: string }>; usage?: ZhipuUsage };
}

export function zhipuUsage(usage: ZhipuUsage | undefined) {
  if (!usage) return null;
  return usageOf(usage.prompt_tokens ?? 0, usage.completion_tokens ?? 0, usage.total_tokens);
}

/** The legacy API returns each choice's content as a JSON string literal ("\"Hello\\n\""). */
function unquote(content: string): string {
  if (content.length < 2 || !content.startsWith('"') || !content.endsWith('"')) return content;
  try {
    const decoded = JSON.parse(content) as unknown;
    return typeof decoded === 'string' ? decoded : content;
  } catch {
    return content.slice(1, -1);
  }
}

export function fromZhipuAnswer(json: Record<string, unknown>, model: string): ChatResponse {
  const data = (json as ZhipuAnswer).data;
  return textCompletion({
    id: `chatcmpl-${data?.task_id ?? Date.now()}`,
    model,
    content: (data?.choices ?? []).map((choice) => unquote(choice.content ?? '')).join(''),
    finishReason: 'stop',
    usage: zhipuUsage(data?.usage),
  });
}

/**
 * The status a refusal means (Zhipu answers them with HTTP 200, `success: false` and a code): 1000–1099 are
 * authentication failures, 1100–1199 account problems (arrears, disabled), 1302–1305 rate and concurrency limits.
 */
export function zhipuRefusalStatus(json: Record<string, unknown>): number | null {
  const answer = json as ZhipuAnswer;
  if (answer.success !== false) return null;
  const code = Number(answer.code);
  if (code >= 1000 && code < 1100) return 401;
  if (code >= 1100 && code < 1200) return 403;
  if (code >= 1302 && code <= 1305) return 429;
  if (code >= 500 && code < 600) return code;
  return 400;
}

export function zhipuError(status: number, text: string): UpstreamError {
  try {
    const answer = JSON.parse(text) as ZhipuAnswer;
    if (typeof answer.msg === 'string') {
      return {
        status,
        message: answer.msg,
        type: 'zhipu_error',
        code: answer.code === undefined ? null : String(answer.code),
      };
    }
  } catch {
    // another shape: read below
  }
  return readUpstreamError(status, text);
}
