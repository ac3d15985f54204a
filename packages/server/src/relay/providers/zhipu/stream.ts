import type { ChunkConverter } from '../../stream/stream-state.js';
import { TextChunks } from '../text-chat.js';
import { zhipuUsage } from './response.js';

/**
 * Zhipu's legacy `sse-invoke` stream → OpenAI chunks. Events: `add` (new text as plain data; several `data:` lines
 * are one text with line breaks), `finish` (its `meta:` line holds the usage), `error`, and `interrupted` (cut off
 * by the content filter).
 */
export function zhipuToOpenAi(model: string, forwardUsage: boolean): ChunkConverter {
  const chunks = new TextChunks(model, forwardUsage);
  return {
    push(event, state, elapsedMs) {
      switch (event.event) {
        case 'error':
          return chunks.error(event.data || 'upstream error', 'zhipu_error');
        case 'interrupted':
          return chunks.text(event.data, state, elapsedMs) + chunks.finish('content_filter', state);
        case 'finish':
          return chunks.text(event.data, state, elapsedMs) + chunks.finish('stop', state);
        default:
          return chunks.text(event.data, state, elapsedMs);
      }
    },
    field(name, value, state) {
      if (name !== 'meta') return '';
      try {
        state.usage = zhipuUsage((JSON.parse(value) as { usage?: Parameters<typeof zhipuUsage>[0] }).usage);
      } catch {
        // an unreadable meta line leaves the usage to be counted
      }
      return '';
    },
    end: (state) => chunks.end(state),
  };
}
