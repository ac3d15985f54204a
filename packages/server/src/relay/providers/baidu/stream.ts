import type { ChunkConverter } from '../../stream/stream-state.js';
import { jsonTextStream } from '../text-chat.js';
import { type BaiduAnswer, baiduFinish, baiduUsage } from './response.js';

/** ERNIE's stream → OpenAI chunks: each event's `result` is new text, `is_end` closes it, usage rides along. */
export function baiduToOpenAi(model: string, forwardUsage: boolean): ChunkConverter {
  return jsonTextStream<BaiduAnswer>(model, forwardUsage, (answer, chunks, state, elapsedMs) => {
    if (answer.error_code) return chunks.error(answer.error_msg ?? 'upstream error', String(answer.error_code));
    state.usage = baiduUsage(answer.usage) ?? state.usage;
    let out = chunks.text(answer.result ?? '', state, elapsedMs);
    if (answer.is_end) out += chunks.finish(baiduFinish(answer.finish_reason), state);
    return out;
  });
}
