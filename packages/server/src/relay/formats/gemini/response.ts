import type { ChatResponse, ChatToolCall, Usage } from '../../types.js';
import { hubAnswer } from '../openai-chat/hub-answer.js';
import type { GeminiPart, GeminiResponse, GeminiUsageMetadata } from './wire.js';

const FINISH: Record<string, string> = {
  STOP: 'stop',
  MAX_TOKENS: 'length',
  SAFETY: 'content_filter',
  RECITATION: 'content_filter',
  PROHIBITED_CONTENT: 'content_filter',
  BLOCKLIST: 'content_filter',
  SPII: 'content_filter',
};

export function geminiFinish(reason: string | undefined, hasToolCalls: boolean): string | null {
  if (!reason) return null;
  if (hasToolCalls && reason === 'STOP') return 'tool_calls';
  return FINISH[reason] ?? 'stop';
}

/** Thinking tokens are output and billed as such; OpenAI reports them inside completion_tokens. */
export function geminiUsage(meta: GeminiUsageMetadata | undefined): Usage {
  const prompt = meta?.promptTokenCount ?? 0;
  const thoughts = meta?.thoughtsTokenCount ?? 0;
  const completion = (meta?.candidatesTokenCount ?? 0) + thoughts;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: meta?.cachedContentTokenCount ?? 0 },
    ...(thoughts ? { completion_tokens_details: { reasoning_tokens: thoughts } } : {}),
  };
}

/** Gemini has no call ids in most answers: the hub needs one to match the result to the call. */
export function callId(part: GeminiPart, index: number): string {
  return part.functionCall?.id || `call_${part.functionCall?.name ?? 'fn'}_${index}`;
}

export function toolCallOf(part: GeminiPart, index: number): ChatToolCall {
  return {
    id: callId(part, index),
    type: 'function',
    function: { name: part.functionCall!.name, arguments: JSON.stringify(part.functionCall!.args ?? {}) },
  };
}

/** Gemini answer → OpenAI chat completion: text, thoughts (with their signature), function calls. */
export function fromGeminiResponse(body: unknown, model: string): ChatResponse {
  const gemini = body as GeminiResponse;
  const candidate = gemini.candidates?.[0];
  let text = '';
  let reasoning = '';
  let signature = '';
  const toolCalls: ChatToolCall[] = [];
  for (const part of candidate?.content?.parts ?? []) {
    if (part.thoughtSignature) signature ||= part.thoughtSignature;
    if (part.functionCall) toolCalls.push(toolCallOf(part, toolCalls.length));
    else if (part.thought) reasoning += part.text ?? '';
    else if (part.text) text += part.text;
  }
  return hubAnswer({
    id: gemini.responseId ? `chatcmpl-${gemini.responseId}` : `chatcmpl-${Date.now()}`,
    model,
    text,
    reasoning,
    signature,
    toolCalls,
    finishReason: geminiFinish(candidate?.finishReason, toolCalls.length > 0),
    usage: geminiUsage(gemini.usageMetadata),
  });
}
