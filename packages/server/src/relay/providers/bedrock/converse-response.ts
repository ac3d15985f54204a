import { claudeUsage } from '../../formats/anthropic/response.js';
import { hubAnswer } from '../../formats/openai-chat/hub-answer.js';
import type { ChatResponse, ChatToolCall, Usage } from '../../types.js';
import type { ConverseResponse, ConverseUsage } from './converse-wire.js';

const FINISH: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  guardrail_intervened: 'content_filter',
  content_filtered: 'content_filter',
};

export const converseFinishReason = (reason: string | undefined) => (reason ? (FINISH[reason] ?? 'stop') : 'stop');

/** Converse counts input like Claude: cached reads and writes apart from `inputTokens`; OpenAI's prompt holds all. */
export function converseUsage(usage: ConverseUsage | undefined): Usage | null {
  if (!usage) return null;
  return claudeUsage({
    input_tokens: usage.inputTokens ?? 0,
    output_tokens: usage.outputTokens ?? 0,
    cache_read_input_tokens: usage.cacheReadInputTokens ?? 0,
    cache_creation_input_tokens: usage.cacheWriteInputTokens ?? 0,
  });
}

/** Converse answer → OpenAI chat completion: text, reasoning (with its signature) and tool calls. */
export function fromConverseResponse(json: Record<string, unknown>, model: string): ChatResponse {
  const answer = json as ConverseResponse;
  let text = '';
  let reasoning = '';
  let signature = '';
  const toolCalls: ChatToolCall[] = [];
  for (const block of answer.output?.message?.content ?? []) {
    if (typeof block.text === 'string') text += block.text;
    const thought = block.reasoningContent?.reasoningText;
    if (thought) {
      reasoning += thought.text ?? '';
      if (thought.signature) signature = thought.signature;
    }
    if (block.toolUse) {
      toolCalls.push({
        id: String(block.toolUse.toolUseId ?? ''),
        type: 'function',
        function: { name: String(block.toolUse.name ?? ''), arguments: JSON.stringify(block.toolUse.input ?? {}) },
      });
    }
  }
  const response = hubAnswer({
    id: `chatcmpl-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`,
    model,
    text,
    reasoning,
    signature,
    toolCalls,
    finishReason: converseFinishReason(answer.stopReason),
    usage: converseUsage(answer.usage),
  });
  return response;
}
