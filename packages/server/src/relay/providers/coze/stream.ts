import type { ChunkConverter } from '../../stream/stream-state.js';
import { TextChunks } from '../text-chat.js';
import { type CozeAnswerMessage, type CozeChat, cozeUsage } from './response.js';

function parse<T>(data: string): T | null {
  try {
    return JSON.parse(data) as T;
  } catch {
    return null;
  }
}

/**
 * Coze's v3 chat stream → OpenAI chunks. Named events: `conversation.message.delta` (a message object whose
 * `content` is the new text, `reasoning_content` a reasoning bot's thinking), `conversation.chat.completed` (the
 * chat with its usage), `conversation.chat.failed` (its `last_error`), `error`, and `done`
 * (nothing more to read: the conveyor ends the stream when the body ends). Messages other than the
 * answer (tool calls, verbose, follow-up suggestions) are the bot's own business.
 */
export function cozeToOpenAi(model: string, forwardUsage: boolean): ChunkConverter {
  const chunks = new TextChunks(model, forwardUsage);
  return {
    push(event, state, elapsedMs) {
      switch (event.event) {
        case 'conversation.message.delta': {
          const message = parse<CozeAnswerMessage>(event.data);
          if (!message || (message.type && message.type !== 'answer')) return '';
          return (
            chunks.text(message.reasoning_content ?? '', state, elapsedMs, 'reasoning_content') +
            chunks.text(message.content ?? '', state, elapsedMs)
          );
        }
        case 'conversation.chat.completed': {
          state.usage = cozeUsage(parse<CozeChat>(event.data)?.usage) ?? state.usage;
          return chunks.finish('stop', state);
        }
        case 'conversation.chat.failed': {
          const chat = parse<CozeChat>(event.data);
          const code = chat?.last_error?.code;
          return chunks.error(chat?.last_error?.msg || 'chat failed', code === undefined ? 'coze_error' : String(code));
        }
        case 'error': {
          const error = parse<{ code?: number; msg?: string; message?: string }>(event.data);
          return chunks.error(error?.msg ?? error?.message ?? 'upstream error', String(error?.code ?? 'coze_error'));
        }
        default:
          return '';
      }
    },
    end: (state) => chunks.end(state),
  };
}
