import type { ChunkConverter } from '../../stream/stream-state.js';
import { jsonTextStream } from '../text-chat.js';
import { type HunyuanAnswer, hunyuanFinish, hunyuanUsage } from './response.js';

/** Hunyuan's stream → OpenAI chunks: each event's `Choices[0].Delta` is new text; every event carries the usage so far. */
export function hunyuanToOpenAi(model: string, forwardUsage: boolean): ChunkConverter {
  return jsonTextStream<HunyuanAnswer>(model, forwardUsage, (answer, chunks, state, elapsedMs) => {
    if (answer.Error?.Code) return chunks.error(answer.Error.Message ?? answer.Error.Code, answer.Error.Code);
    state.usage = hunyuanUsage(answer.Usage) ?? state.usage;
    const choice = answer.Choices?.[0];
    let out = chunks.text(choice?.Delta?.ReasoningContent ?? '', state, elapsedMs, 'reasoning_content');
    out += chunks.text(choice?.Delta?.Content ?? '', state, elapsedMs);
    if (choice?.FinishReason) out += chunks.finish(hunyuanFinish(choice.FinishReason), state);
    return out;
  });
}
