import type { ChatMessage, ChatRequest, ChatResponse } from '../../types.js';

// Conversions for the Claude-native route (`/v1/messages`) when the chosen channel speaks another format: the
// Claude request becomes an OpenAI chat request (which every adapter accepts), and the OpenAI answer becomes a
// Claude message again.

type ClaudeContent =
  | string
  | Array<{ type: string; text?: string; source?: { type: string; media_type?: string; data?: string; url?: string } }>;

export interface ClaudeRequest {
  model: string;
  max_tokens: number;
  messages: Array<{ role: string; content: ClaudeContent }>;
  system?: string | Array<{ type: string; text?: string }>;
  stream?: boolean;
  temperature?: number;
  top_p?: number;
  stop_sequences?: string[];
  [key: string]: unknown;
}

function toOpenAiContent(content: ClaudeContent): ChatMessage['content'] {
  if (typeof content === 'string') return content;
  return content
    .map((block) => {
      if (block.type === 'text') return { type: 'text', text: block.text ?? '' };
      if (block.type === 'image' && block.source) {
        const url =
          block.source.type === 'base64'
            ? `data:${block.source.media_type};base64,${block.source.data}`
            : (block.source.url ?? '');
        return { type: 'image_url', image_url: { url } };
      }
      return null;
    })
    .filter((part): part is NonNullable<typeof part> => part !== null);
}

export function claudeToOpenAiRequest(request: ClaudeRequest, model: string): ChatRequest {
  const messages: ChatMessage[] = [];
  const system =
    typeof request.system === 'string' ? request.system : (request.system ?? []).map((b) => b.text ?? '').join('\n');
  if (system) messages.push({ role: 'system', content: system });
  for (const message of request.messages)
    messages.push({ role: message.role, content: toOpenAiContent(message.content) });
  const chat: ChatRequest = { model, messages, max_tokens: request.max_tokens, stream: request.stream === true };
  if (request.stream) chat.stream_options = { include_usage: true };
  if (request.temperature !== undefined) chat.temperature = request.temperature;
  if (request.top_p !== undefined) chat.top_p = request.top_p;
  if (request.stop_sequences) chat.stop = request.stop_sequences;
  return chat;
}

const STOP: Record<string, string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  content_filter: 'end_turn',
};

export function claudeStopReason(finish: string | null | undefined): string {
  return finish ? (STOP[finish] ?? 'end_turn') : 'end_turn';
}

/** Claude usage from OpenAI usage: cached tokens are reported apart from the rest of the input. */
export function claudeUsageFromOpenAi(usage: ChatResponse['usage']) {
  const cached = usage?.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    input_tokens: Math.max(0, (usage?.prompt_tokens ?? 0) - cached),
    output_tokens: usage?.completion_tokens ?? 0,
    cache_read_input_tokens: cached,
  };
}

export function openAiToClaudeResponse(response: ChatResponse, model: string) {
  const choice = response.choices?.[0];
  const text = typeof choice?.message?.content === 'string' ? choice.message.content : '';
  return {
    id: (response.id ?? '').startsWith('msg_') ? response.id : `msg_${response.id ?? Date.now()}`,
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text }],
    stop_reason: claudeStopReason(choice?.finish_reason),
    stop_sequence: null,
    usage: claudeUsageFromOpenAi(response.usage),
  };
}
