import type { ChunkConverter } from '../../stream/stream-state.js';
import { TextChunks } from '../text-chat.js';
import { type BaiduAnswer, baiduFinish, baiduUsage } from './response.js';

/** ERNIE's stream → OpenAI chunks: each event's `result` is new text, `is_end` closes it, usage rides along. */
export function baiduToOpenAi(model: string, forwardUsage: boolean): ChunkConverter {
  const chunks = new TextChunks(model, forwardUsage);
  return {
    push(event, state, elapsedMs) {
      let answer: BaiduAnswer;
      try {
        answer = JSON.parse(event.data) as BaiduAnswer;
      } catch {
        return '';
      }
      if (answer.error_code) return chunks.error(answer.error_msg ?? 'upstream error', String(answer.error_code));
      state.usage = baiduUsage(answer.usage) ?? state.usage;
      let out = chunks.text(answer.result ?? '', state, elapsedMs);
      if (answer.is_end) out += chunks.finish(baiduFinish(answer.finish_reason), state);
      return out;
    },
    end: (state) => chunks.end(state),
  };
}
