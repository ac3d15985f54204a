import { randomUUID } from 'node:crypto';
import { imageUrlOf, messageText } from '../../formats/openai-chat/text-content.js';
import type { ChatMessage, ChatRequest } from '../../types.js';

export interface CozeMessage {
  role: 'user' | 'assistant';
  type?: 'question' | 'answer';
  content: string;
  content_type: 'text' | 'object_string';
}

export interface CozeRequest {
  bot_id: string;
  user_id: string;
  additional_messages: CozeMessage[];
  stream: boolean;
}

/** A user turn with images is an `object_string`: a JSON list of text and image (by URL) objects. */
function userMessage(message: ChatMessage): CozeMessage {
  const parts = Array.isArray(message.content) ? message.content : [];
  if (!parts.some((part) => part.type === 'image_url')) {
    return { role: 'user', content: messageText(message), content_type: 'text' };
  }
  const objects = parts.flatMap((part): Array<Record<string, string>> => {
    if (part.type === 'text' && typeof part.text === 'string') return [{ type: 'text', text: part.text }];
    const url = part.type === 'image_url' ? imageUrlOf(part) : null;
    return url ? [{ type: 'image', file_url: url }] : [];
  });
  return { role: 'user', content: JSON.stringify(objects), content_type: 'object_string' };
}

/**
 * OpenAI chat → a Coze v3 chat body. The bot (`other`, or the model name when the channel has none) holds its own
 * persona, so system messages are left to it (family); user turns and the assistant's earlier answers become
 * `additional_messages`, the conversation context of a new chat.
 */
export function toCozeRequest(request: ChatRequest, botId: string): CozeRequest {
  const messages: CozeMessage[] = [];
  for (const message of request.messages) {
    if (message.role === 'user') messages.push(userMessage(message));
    else if (message.role === 'assistant' && messageText(message)) {
      messages.push({ role: 'assistant', type: 'answer', content: messageText(message), content_type: 'text' });
    }
  }
  return {
    bot_id: botId,
    // Coze requires a user id; without the client's own, each request is its own user (family).
    user_id: typeof request.user === 'string' && request.user ? request.user : `gateway-${randomUUID()}`,
    additional_messages: messages,
    stream: request.stream === true,
  };
}
