import { messageText } from './formats/openai-chat/text-content.js';
import type { ChatMessage, ChatRequest } from './types.js';

/**
 * A cheap prompt-size estimate for the reservation only (about 4 characters per token, CJK 1 per token, +3 per
 * message): billing always uses the upstream's usage or a real tokenizer. Tokenizing every prompt up front would
 * cost more CPU than the rest of the relay together.
 */
export function estimatePromptTokens(messages: readonly ChatMessage[]): number {
  let tokens = 3;
  for (const message of messages) {
    const text = messageText(message);
    let wide = 0;
    for (let index = 0; index < text.length; index++) if (text.charCodeAt(index) > 0x2e7f) wide++;
    tokens += 3 + wide + Math.ceil((text.length - wide) / 4);
    if (Array.isArray(message.content)) {
      for (const part of message.content) if (part.type === 'image_url') tokens += 520;
    }
  }
  return tokens;
}

type Encoder = (text: string) => number;
let encoder: Promise<Encoder> | null = null;

/** The o200k tokenizer, loaded on first use (it is large and only needed when an upstream reports no usage). */
function loadEncoder(): Promise<Encoder> {
  encoder ??= import('gpt-tokenizer/encoding/o200k_base').then((module) => (text: string) => module.countTokens(text));
  return encoder;
}

export async function countTextTokens(text: string): Promise<number> {
  if (!text) return 0;
  return (await loadEncoder())(text);
}

/** Prompt tokens counted the OpenAI chat way: tokens of each message + 3 per message (+1 per name) + 3. */
export async function countPromptTokens(request: ChatRequest): Promise<number> {
  const count = await loadEncoder();
  let tokens = 3;
  for (const message of request.messages) {
    tokens += 3 + count(messageText(message)) + (message.name ? 1 : 0);
  }
  return tokens;
}

export function maxOutputTokens(request: ChatRequest): number {
  const value = request.max_completion_tokens ?? request.max_tokens ?? 0;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}
