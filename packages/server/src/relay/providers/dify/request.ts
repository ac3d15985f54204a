import { randomUUID } from 'node:crypto';
import { ConversionError } from '../../formats/openai-chat/conversion-error.js';
import { imageUrlOf, messageText } from '../../formats/openai-chat/text-content.js';
import type { ChatMessage, ChatRequest } from '../../types.js';

/**
 * A file attached to the query: a remote image Dify fetches itself, or an uploaded one. An inline (data URL) image
 * leaves here as a `local_file` with the data URL still in `url`; the provider uploads it when it sends the call
 * (upload.ts) and puts the upload's id in its place.
 */
export type DifyFile =
  | { type: 'image'; transfer_mode: 'remote_url'; url: string }
  | { type: 'image'; transfer_mode: 'local_file'; url?: string; upload_file_id?: string };

export interface DifyRequest {
  inputs: Record<string, unknown>;
  query: string;
  response_mode: 'streaming';
  user: string;
  auto_generate_name: boolean;
  files: DifyFile[];
}

const LABELS: Record<string, string> = { system: 'SYSTEM', assistant: 'ASSISTANT' };

/** The `ROLE: \n<text>\n` block a turn becomes inside the one query a Dify app takes (family format). */
const block = (role: string, text: string) => `${LABELS[role] ?? 'USER'}: \n${text}\n`;

function userTurn(message: ChatMessage, files: DifyFile[]): string {
  if (!Array.isArray(message.content)) return block('user', messageText(message));
  let text = '';
  for (const part of message.content) {
    if (part.type === 'text' && typeof part.text === 'string') text += block('user', part.text);
    if (part.type !== 'image_url') continue;
    const url = imageUrlOf(part);
    if (url && /^https?:\/\//i.test(url)) files.push({ type: 'image', transfer_mode: 'remote_url', url });
    else if (url?.startsWith('data:')) files.push({ type: 'image', transfer_mode: 'local_file', url });
    else throw new ConversionError('an image that is neither a URL nor a data URL');
  }
  return text;
}

/**
 * OpenAI chat → a Dify chat app's `chat-messages` body. A Dify app keeps its conversations itself and takes one
 * query; the gateway starts a new conversation each time, so the whole history is folded into the query as
 * `SYSTEM:` / `USER:` / `ASSISTANT:` blocks (as the family does). Model parameters belong to the app and are not sent.
 */
export function toDifyRequest(request: ChatRequest): DifyRequest {
  const files: DifyFile[] = [];
  const query = request.messages
    .map((message) =>
      message.role === 'system' || message.role === 'assistant'
        ? block(message.role, messageText(message))
        : userTurn(message, files),
    )
    .join('');
  return {
    inputs: {},
    query,
    // Always streaming: agent apps refuse blocking; the provider gathers a whole answer from the stream.
    response_mode: 'streaming',
    // Dify requires an end-user id; without the client's own, each request is its own user (family).
    user: typeof request.user === 'string' && request.user ? request.user : `gateway-${randomUUID()}`,
    auto_generate_name: false,
    files,
  };
}
