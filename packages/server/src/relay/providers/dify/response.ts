import type { ChatResponse, UpstreamError } from '../../types.js';
import { readUpstreamError } from '../errors.js';
import { textCompletion, usageOf } from '../text-chat.js';

interface DifyUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

/** A blocking answer, and each streamed event (`event` tells which). */
export interface DifyEvent {
  event?: string;
  message_id?: string;
  conversation_id?: string;
  answer?: string;
  metadata?: { usage?: DifyUsage };
  data?: { workflow_id?: string; node_type?: string; title?: string; status?: string };
  thought?: string;
  status?: number;
  code?: string;
  message?: string;
}

export function difyUsage(usage: DifyUsage | undefined) {
  if (!usage || (!usage.total_tokens && !usage.prompt_tokens && !usage.completion_tokens)) return null;
  return usageOf(usage.prompt_tokens ?? 0, usage.completion_tokens ?? 0, usage.total_tokens);
}

/**
 * Dify's chat apps wrap a reasoning model's thinking in a collapsible HTML block; it is the answer's reasoning.
 * Streamed, the opening and the closing tag each come as one delta of their own.
 */
export const THINKING_OPEN =
  '<details style="color:gray;background-color: #f8f8f8;padding: 8px;border-radius: 4px;" open> <summary> Thinking... </summary>\n';
export const THINKING_CLOSE = '</details>';

export function splitThinking(answer: string): { reasoning: string; content: string } {
  const close = answer.indexOf(THINKING_CLOSE);
  if (!answer.startsWith(THINKING_OPEN) || close === -1) return { reasoning: '', content: answer };
  return {
    reasoning: answer.slice(THINKING_OPEN.length, close).trim(),
    content: answer.slice(close + THINKING_CLOSE.length).replace(/^\s+/, ''),
  };
}

export function fromDifyAnswer(json: Record<string, unknown>, model: string): ChatResponse {
  const answer = json as DifyEvent;
  const { reasoning, content } = splitThinking(answer.answer ?? '');
  return textCompletion({
    id: `chatcmpl-${answer.message_id ?? answer.conversation_id ?? Date.now()}`,
    model,
    content,
    reasoning,
    finishReason: 'stop',
    usage: difyUsage(answer.metadata?.usage),
  });
}

/** Dify's error body: `{code, message, status}` (`code` a word such as `invalid_param`). */
export function difyError(status: number, text: string): UpstreamError {
  try {
    const body = JSON.parse(text) as DifyEvent;
    if (typeof body.message === 'string' && typeof body.code === 'string') {
      return { status, message: body.message, type: 'dify_error', code: body.code };
    }
  } catch {
    // another shape: read below
  }
  return readUpstreamError(status, text);
}
