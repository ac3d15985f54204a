import type { ChatResponse, UpstreamError } from '../../types.js';
import { readUpstreamError } from '../errors.js';
import { textCompletion, usageOf } from '../text-chat.js';

interface CozeUsage {
  token_count?: number;
  output_count?: number;
  input_count?: number;
}

/** A chat object: what `conversation.chat.*` events and `/v3/chat/retrieve` carry. */
export interface CozeChat {
  id?: string;
  conversation_id?: string;
  status?: string;
  usage?: CozeUsage;
  last_error?: { code?: number; msg?: string };
}

/** A message object: what `conversation.message.*` events and `/v3/chat/message/list` carry. */
export interface CozeAnswerMessage {
  role?: string;
  type?: string;
  content?: string;
  reasoning_content?: string;
}

/** Every Coze API answer: `code` 0 with `data`, or a refusal (`code` and `msg`, with HTTP 200 too). */
export interface CozeEnvelope<Data> {
  code?: number;
  msg?: string;
  data?: Data;
}

/** What the provider assembles for a whole (polled) answer: the finished chat and its messages. */
export interface CozeWholeAnswer {
  chat: CozeChat;
  messages: CozeAnswerMessage[];
}

export function cozeUsage(usage: CozeUsage | undefined) {
  if (!usage?.token_count) return null;
  return usageOf(usage.input_count ?? 0, usage.output_count ?? 0, usage.token_count);
}

/** The bot's answer: its `answer` messages (verbose, follow-up and tool messages are the bot's own business). */
export function fromCozeAnswer(json: Record<string, unknown>, model: string): ChatResponse {
  const whole = json as unknown as CozeWholeAnswer;
  const answers = (whole.messages ?? []).filter((message) => message.type === 'answer');
  return textCompletion({
    id: `chatcmpl-${whole.chat?.id ?? Date.now()}`,
    model,
    content: answers.map((message) => message.content ?? '').join(''),
    reasoning: answers.map((message) => message.reasoning_content ?? '').join(''),
    finishReason: 'stop',
    usage: cozeUsage(whole.chat?.usage),
  });
}

/**
 * The status a Coze refusal code means: 4100 a token that is not valid, 4101 one without the bot's permission, 4013
 * and 4009 rate or load limits, 4200 a bot that does not exist or is not published to the API; other 4xxx are
 * bad requests, 5xxx the platform's own failures.
 */
export function cozeCodeStatus(code: number): number {
  if (code === 4100) return 401;
  if (code === 4101) return 403;
  if (code === 4013 || code === 4009) return 429;
  if (code === 4200) return 404;
  if (code >= 5000 && code < 6000) return 500;
  return 400;
}

export function cozeRefusalStatus(json: Record<string, unknown>): number | null {
  const code = Number((json as CozeEnvelope<unknown>).code ?? 0);
  return code === 0 ? null : cozeCodeStatus(code);
}

export function cozeError(status: number, text: string): UpstreamError {
  try {
    const body = JSON.parse(text) as CozeEnvelope<unknown>;
    if (typeof body.msg === 'string' && body.code !== undefined) {
      return { status, message: body.msg, type: 'coze_error', code: String(body.code) };
    }
  } catch {
    // another shape: read below
  }
  return readUpstreamError(status, text);
}
