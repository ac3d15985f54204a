import type { ChatResponse, ChatToolCall, Usage } from '../../types.js';
import { hubAnswer } from '../openai-chat/hub-answer.js';
import type { ClaudeResponse, ClaudeUsage } from './wire.js';

const FINISH: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  max_tokens: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};

export function claudeFinishReason(reason: string | null | undefined): string | null {
  return reason ? (FINISH[reason] ?? 'stop') : null;
}

/** Claude counts cached input separately; OpenAI's prompt_tokens includes it, with the cached part in details. */
export function claudeUsage(usage: ClaudeUsage | undefined): Usage {
  const cached = usage?.cache_read_input_tokens ?? 0;
  const created = usage?.cache_creation_input_tokens ?? 0;
  const prompt = (usage?.input_tokens ?? 0) + cached + created;
  const completion = usage?.output_tokens ?? 0;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: cached },
    cache_creation_tokens: created,
  };
}

/** Anthropic Messages answer → OpenAI chat completion: text, thinking (with its signature) and tool calls. */
export function fromClaudeResponse(body: unknown, model: string): ChatResponse {
  const claude = body as ClaudeResponse;
  let text = '';
  let reasoning = '';
  let signature = '';
  const toolCalls: ChatToolCall[] = [];
  for (const block of claude.content ?? []) {
    if (block.type === 'text') text += String(block.text ?? '');
    else if (block.type === 'thinking') {
      reasoning += String(block.thinking ?? '');
      if (typeof block.signature === 'string') signature = block.signature;
    } else if (block.type === 'tool_use') {
      toolCalls.push({
        id: String(block.id),
        type: 'function',
        function: { name: String(block.name), arguments: JSON.stringify(block.input ?? {}) },
      });
    }
  }
  return hubAnswer({
    id: claude.id ?? `chatcmpl-${Date.now()}`,
    model: claude.model ?? model,
    text,
    reasoning,
    signature,
    toolCalls,
    finishReason: claudeFinishReason(claude.stop_reason),
    usage: claudeUsage(claude.usage),
  });
}
