import type { ChatResponse, UpstreamError } from '../../types.js';
import { readUpstreamError } from '../errors.js';
import { textCompletion, usageOf } from '../text-chat.js';

/** One answer frame. `header.status` is 0 (first), 1 (more) or 2 (last, with the usage); `code` 0 means no error. */
export interface SparkFrame {
  header?: { code?: number; message?: string; sid?: string; status?: number };
  payload?: {
    choices?: { status?: number; text?: Array<{ content?: string; reasoning_content?: string }> };
    usage?: { text?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } };
  };
}

export function sparkUsage(frame: SparkFrame) {
  const usage = frame.payload?.usage?.text;
  return usage ? usageOf(usage.prompt_tokens ?? 0, usage.completion_tokens ?? 0, usage.total_tokens) : null;
}

export const isLastFrame = (frame: SparkFrame) => frame.header?.status === 2 || frame.payload?.choices?.status === 2;

/** A whole answer (non-streamed requests): the frames' texts joined into one frame of the same shape. */
export class SparkAssembly {
  private content = '';
  private reasoning = '';
  private last: SparkFrame = {};

  add(frame: SparkFrame): void {
    for (const item of frame.payload?.choices?.text ?? []) {
      this.content += item.content ?? '';
      this.reasoning += item.reasoning_content ?? '';
    }
    this.last = frame;
  }

  json(): string {
    const text = {
      role: 'assistant',
      content: this.content,
      ...(this.reasoning ? { reasoning_content: this.reasoning } : {}),
    };
    return JSON.stringify({
      header: this.last.header,
      payload: { choices: { status: 2, text: [text] }, usage: this.last.payload?.usage },
    });
  }
}

export function fromSparkAnswer(json: Record<string, unknown>, model: string): ChatResponse {
  const frame = json as SparkFrame;
  const text = frame.payload?.choices?.text ?? [];
  return textCompletion({
    id: `chatcmpl-${frame.header?.sid ?? Date.now()}`,
    model,
    content: text.map((item) => item.content ?? '').join(''),
    reasoning: text.map((item) => item.reasoning_content ?? '').join(''),
    finishReason: 'stop',
    usage: sparkUsage(frame),
  });
}

// Spark's error codes: content review (10013, 10014, 10019), a malformed or too long request (10160, 10161, 10163,
// 10907), the app's rights (11200) and its daily, rate and concurrency limits (11201–11203); others are Spark's.
const REFUSED = new Set([10013, 10014, 10019, 10160, 10161, 10163, 10907]);

export function sparkRefusalStatus(frame: SparkFrame): number | null {
  const code = frame.header?.code;
  if (!code) return null;
  if (REFUSED.has(code)) return 400;
  if (code === 11200) return 403;
  if (code >= 11201 && code <= 11203) return 429;
  return 500;
}

/** An error frame, or the handshake's refusal (`{"message": "HMAC signature does not match"}`). */
export function sparkError(status: number, text: string): UpstreamError {
  try {
    const header = (JSON.parse(text) as SparkFrame).header;
    if (header?.code) {
      return {
        status,
        message: header.message ?? `Spark error ${header.code}`,
        type: 'xunfei_error',
        code: String(header.code),
      };
    }
  } catch {
    // another shape: read below
  }
  return readUpstreamError(status, text);
}
