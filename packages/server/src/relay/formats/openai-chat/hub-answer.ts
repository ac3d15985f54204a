import type { ChatResponse, ChatToolCall, Usage } from '../../types.js';

/** What a converted whole answer says, read out of another format's answer. */
export interface HubAnswerParts {
  id: string;
  model: string;
  text: string;
  reasoning: string;
  /** The provider's signature over its reasoning, carried back on the next turn (`reasoning_signature`). */
  signature: string;
  toolCalls: ChatToolCall[];
  finishReason: string | null;
  usage?: Usage | null;
}

/**
 * A whole answer in the hub format (OpenAI chat plus `reasoning_content` and `reasoning_signature`), as the Claude,
 * Gemini and Bedrock readers build it: content is null when the answer is only tool calls, empty fields are left out.
 */
export function hubAnswer(parts: HubAnswerParts): ChatResponse {
  const { text, reasoning, signature, toolCalls } = parts;
  const answer: ChatResponse = {
    id: parts.id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: parts.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text || (toolCalls.length ? null : ''),
          ...(reasoning ? { reasoning_content: reasoning } : {}),
          ...(signature ? { reasoning_signature: signature } : {}),
          ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: parts.finishReason,
      },
    ],
  };
  if (parts.usage) answer.usage = parts.usage;
  return answer;
}
