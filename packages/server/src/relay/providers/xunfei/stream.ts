import type { ChunkConverter } from '../../stream/stream-state.js';
import { jsonTextStream } from '../text-chat.js';
import { isLastFrame, type SparkFrame, sparkUsage } from './frames.js';

/** Spark's answer frames (each relayed as one event) → OpenAI chunks; the last frame carries the usage. */
export function sparkToOpenAi(model: string, forwardUsage: boolean): ChunkConverter {
  return jsonTextStream<SparkFrame>(model, forwardUsage, (frame, chunks, state, elapsedMs) => {
    const code = frame.header?.code;
    if (code) return chunks.error(frame.header?.message ?? `Spark error ${code}`, String(code));
    let out = '';
    for (const item of frame.payload?.choices?.text ?? []) {
      out += chunks.text(item.reasoning_content ?? '', state, elapsedMs, 'reasoning_content');
      out += chunks.text(item.content ?? '', state, elapsedMs);
    }
    state.usage = sparkUsage(frame) ?? state.usage;
    if (isLastFrame(frame)) out += chunks.finish('stop', state);
    return out;
  });
}
