import type { ChatResponse, Usage } from '../../types.js';

interface ClaudeResponse {
  id?: string;
  model?: string;
  content?: Array<{ type: string; text?: string; thinking?: string }>;
  stop_reason?: string | null;
  usage?: {
    input_tokens?: number;
    output_tokens?: number;
    cache_read_input_tokens?: number;
    cache_creation_input_tokens?: number;
  };
}

const FINISH: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  tool_use: 'tool_calls',
};

export function claudeFinishReason(reason: string | null | undefined): string | null {
  return reason ? (FINISH[reason] ?? 'stop') : null;
}

/** Claude counts cached input separately; OpenAI's prompt_tokens includes it, with the cached part in details. */
export function claudeUsage(usage: ClaudeResponse['usage']): Usage {
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

export function fromClaudeResponse(body: unknown, model: string): ChatResponse {
  const claude = body as ClaudeResponse;
  const text = (claude.content ?? [])
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('');
  const reasoning = (claude.content ?? [])
    .filter((block) => block.type === 'thinking')
    .map((block) => block.thinking ?? '')
    .join('');
  return {
    id: claude.id ?? `chatcmpl-${Date.now()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: claude.model ?? model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: text, ...(reasoning ? { reasoning_content: reasoning } : {}) },
        finish_reason: claudeFinishReason(claude.stop_reason),
      },
    ],
    usage: claudeUsage(claude.usage),
  };
}
