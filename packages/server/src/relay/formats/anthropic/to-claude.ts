import type { ChatResponse, ChatToolCall, Usage } from '../../types.js';
import type { ClaudeBlock, ClaudeUsage } from './wire.js';

// The hub format's answers (OpenAI chat) → Anthropic Messages answers, for Claude clients served by any channel.

const STOP: Record<string, string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  content_filter: 'refusal',
};

export function claudeStopReason(finish: string | null | undefined): string {
  return finish ? (STOP[finish] ?? 'end_turn') : 'end_turn';
}

/** Claude reports cache reads and cache writes apart from the rest of the input; OpenAI's prompt_tokens holds all. */
export function claudeUsageFromOpenAi(usage: Usage | null | undefined): Required<ClaudeUsage> {
  const cached = usage?.prompt_tokens_details?.cached_tokens ?? 0;
  const created = Number(usage?.cache_creation_tokens ?? 0);
  return {
    input_tokens: Math.max(0, (usage?.prompt_tokens ?? 0) - cached - created),
    output_tokens: usage?.completion_tokens ?? 0,
    cache_read_input_tokens: cached,
    cache_creation_input_tokens: created,
  };
}

/** Tool arguments are JSON text in OpenAI's format and an object in Claude's. */
export function toolInput(call: ChatToolCall): unknown {
  try {
    const input = JSON.parse(call.function.arguments || '{}') as unknown;
    return input && typeof input === 'object' ? input : { value: input };
  } catch {
    // A model that produced broken JSON: the client still sees what it said.
    return { _raw_arguments: call.function.arguments };
  }
}

export function claudeMessageId(id: string | undefined): string {
  return id?.startsWith('msg_') ? id : `msg_${id || Date.now().toString(36)}`;
}

export function openAiToClaudeResponse(response: ChatResponse, model: string) {
  const choice = response.choices?.[0];
  const message = choice?.message;
  const content: ClaudeBlock[] = [];
  if (typeof message?.reasoning_content === 'string' && message.reasoning_content) {
    content.push({
      type: 'thinking',
      thinking: message.reasoning_content,
      signature: message.reasoning_signature ?? '',
    });
  }
  const text = typeof message?.content === 'string' ? message.content : '';
  if (text) content.push({ type: 'text', text });
  for (const call of message?.tool_calls ?? []) {
    content.push({ type: 'tool_use', id: call.id, name: call.function.name, input: toolInput(call) });
  }
  if (content.length === 0) content.push({ type: 'text', text: '' });
  return {
    id: claudeMessageId(response.id),
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: claudeStopReason(choice?.finish_reason),
    stop_sequence: null,
    usage: claudeUsageFromOpenAi(response.usage),
  };
}
