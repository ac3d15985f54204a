import { type ChunkConverter, SSE_DONE, sseLine } from '../../stream/stream-state.js';
import type { Usage } from '../../types.js';

interface OpenAiChunk {
  choices?: Array<{
    /** Legacy completions stream `text` instead of a delta. */
    text?: string;
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      tool_calls?: Array<{ function?: { arguments?: string } }>;
    };
    finish_reason?: string | null;
  }>;
  usage?: Usage | null;
}

/**
 * OpenAI-format upstreams: each event is forwarded as it came (no re-serialising), except the usage-only chunk
 * when the client did not ask for it. Each event is parsed once to learn usage and the generated text.
 */
export function openAiPassThrough(forwardUsage: boolean): ChunkConverter {
  return {
    push(event, state, elapsedMs) {
      if (event.data === '[DONE]') {
        state.sawDone = true;
        return SSE_DONE;
      }
      let chunk: OpenAiChunk;
      try {
        chunk = JSON.parse(event.data) as OpenAiChunk;
      } catch {
        return '';
      }
      if (chunk.usage) state.usage = chunk.usage;
      for (const choice of chunk.choices ?? []) {
        const delta = choice.delta;
        const piece =
          (choice.text ?? '') +
          (delta?.content ?? '') +
          (delta?.reasoning_content ?? delta?.reasoning ?? '') +
          (delta?.tool_calls ?? []).map((call) => call.function?.arguments ?? '').join('');
        if (piece) {
          state.text += piece;
          state.firstTokenMs ??= elapsedMs;
        }
        if (choice.finish_reason) state.finishReason = choice.finish_reason;
      }
      const usageOnly = chunk.usage && (chunk.choices ?? []).length === 0;
      if (usageOnly && !forwardUsage) return '';
      return sseLine(event.data);
    },
    end(state) {
      // Some OpenAI-compatible upstreams close without [DONE]; clients wait for it.
      return state.sawDone ? '' : SSE_DONE;
    },
  };
}
