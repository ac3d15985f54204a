import type { ChatMessage, ChatResponse, ChatToolCall, Usage } from '../../types.js';

// A Responses API answer (or the `response` of its final stream event) read as an OpenAI chat completion, for chat
// clients served through the Responses API (chat-request-to-responses.ts).

export interface ResponsesAnswer {
  id?: string;
  created_at?: number;
  model?: string;
  status?: string;
  incomplete_details?: { reason?: string } | null;
  error?: { message?: string; code?: string } | null;
  output?: Array<Record<string, unknown>>;
  usage?: {
    input_tokens?: number;
    output_tokens?: number;
    input_tokens_details?: { cached_tokens?: number };
    output_tokens_details?: { reasoning_tokens?: number };
  } | null;
}

/** Usage in the chat shape, cached and reasoning tokens kept so they are priced by their ratios. */
export function chatUsageOfResponses(usage: ResponsesAnswer['usage']): Usage | null {
  if (!usage) return null;
  const prompt = usage.input_tokens ?? 0;
  const completion = usage.output_tokens ?? 0;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: usage.input_tokens_details?.cached_tokens ?? 0 },
    completion_tokens_details: { reasoning_tokens: usage.output_tokens_details?.reasoning_tokens ?? 0 },
  };
}

/** The chat finish reason of a finished response: calls win, then why it stopped early. */
export function chatFinishOfResponses(answer: ResponsesAnswer, calledTools: boolean): string {
  if (calledTools) return 'tool_calls';
  if (answer.status === 'incomplete') {
    return answer.incomplete_details?.reason === 'content_filter' ? 'content_filter' : 'length';
  }
  return 'stop';
}

function outputText(item: Record<string, unknown>, kind: 'output_text' | 'refusal'): string {
  const parts = Array.isArray(item.content) ? (item.content as Array<Record<string, unknown>>) : [];
  return parts
    .filter((part) => part.type === kind)
    .map((part) => String(kind === 'refusal' ? part.refusal : part.text))
    .join('');
}

export function responsesAnswerToChat(json: Record<string, unknown>, model: string): ChatResponse {
  const answer = json as ResponsesAnswer;
  if (answer.status === 'failed' || !Array.isArray(answer.output)) {
    throw new Error(answer.error?.message ?? 'the upstream answer has no output');
  }
  let text = '';
  let refusal = '';
  let reasoning = '';
  let signature: string | undefined;
  const calls: ChatToolCall[] = [];
  for (const item of answer.output) {
    if (item.type === 'message') {
      text += outputText(item, 'output_text');
      refusal += outputText(item, 'refusal');
    } else if (item.type === 'function_call') {
      calls.push({
        id: String(item.call_id),
        type: 'function',
        function: { name: String(item.name), arguments: String(item.arguments ?? '') },
      });
    } else if (item.type === 'reasoning') {
      const summary = Array.isArray(item.summary) ? (item.summary as Array<{ text?: string }>) : [];
      reasoning += summary.map((part) => part.text ?? '').join('\n');
      if (typeof item.encrypted_content === 'string') signature = item.encrypted_content;
    }
  }
  const message: ChatMessage = { role: 'assistant', content: text || (calls.length > 0 || refusal ? null : '') };
  if (refusal) message.refusal = refusal;
  if (reasoning) message.reasoning_content = reasoning;
  if (signature) message.reasoning_signature = signature;
  if (calls.length > 0) message.tool_calls = calls;
  const usage = chatUsageOfResponses(answer.usage);
  return {
    id: answer.id ? `chatcmpl-${answer.id}` : `chatcmpl-${Date.now().toString(36)}`,
    object: 'chat.completion',
    created: answer.created_at ?? Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, finish_reason: chatFinishOfResponses(answer, calls.length > 0) }],
    ...(usage ? { usage } : {}),
  };
}
