import type { ChatMessage } from '../../types.js';

/** The plain text of a message, whether content is a string or a list of parts. */
export function messageText(message: ChatMessage): string {
  if (typeof message.content === 'string') return message.content;
  if (!Array.isArray(message.content)) return '';
  return message.content
    .map((part) => (part.type === 'text' && typeof part.text === 'string' ? part.text : ''))
    .filter(Boolean)
    .join('\n');
}

export function imageUrlOf(part: { image_url?: { url: string } | string }): string | null {
  if (typeof part.image_url === 'string') return part.image_url;
  return part.image_url?.url ?? null;
}
