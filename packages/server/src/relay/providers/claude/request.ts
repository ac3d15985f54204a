import type { ChatMessage, ChatRequest } from '../../types.js';
import { imageUrlOf, messageText } from '../text-content.js';

export const ANTHROPIC_VERSION = '2023-06-01';

type ClaudeBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string } };

interface ClaudeMessage {
  role: 'user' | 'assistant';
  content: ClaudeBlock[];
}

function blocksOf(message: ChatMessage): ClaudeBlock[] {
  if (!Array.isArray(message.content)) return [{ type: 'text', text: messageText(message) }];
  const blocks: ClaudeBlock[] = [];
  for (const part of message.content) {
    if (part.type === 'text' && typeof part.text === 'string') blocks.push({ type: 'text', text: part.text });
    if (part.type === 'image_url') {
      const url = imageUrlOf(part as { image_url?: { url: string } | string });
      if (!url) continue;
      const inline = /^data:([^;]+);base64,(.*)$/s.exec(url);
      blocks.push({
        type: 'image',
        source: inline ? { type: 'base64', media_type: inline[1]!, data: inline[2]! } : { type: 'url', url },
      });
    }
  }
  return blocks;
}

/**
 * OpenAI chat → Anthropic Messages. System messages become `system`; Claude requires alternating turns that start
 * with the user, so consecutive messages of one role are merged and a leading assistant turn gets an empty user turn.
 */
export function toClaudeRequest(request: ChatRequest, defaultMaxTokens: number): Record<string, unknown> {
  const system = request.messages
    .filter((message) => message.role === 'system' || message.role === 'developer')
    .map(messageText)
    .join('\n');
  const turns: ClaudeMessage[] = [];
  for (const message of request.messages) {
    if (message.role === 'system' || message.role === 'developer') continue;
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = blocksOf(message).filter((block) => block.type !== 'text' || block.text !== '');
    const last = turns.at(-1);
    if (last && last.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  }
  if (turns[0]?.role === 'assistant') turns.unshift({ role: 'user', content: [{ type: 'text', text: '...' }] });
  const body: Record<string, unknown> = {
    model: request.model,
    messages: turns,
    max_tokens: request.max_tokens ?? request.max_completion_tokens ?? defaultMaxTokens,
  };
  if (system) body.system = system;
  if (request.stream) body.stream = true;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.top_p !== undefined) body.top_p = request.top_p;
  if (request.stop !== undefined) body.stop_sequences = Array.isArray(request.stop) ? request.stop : [request.stop];
  return body;
}
