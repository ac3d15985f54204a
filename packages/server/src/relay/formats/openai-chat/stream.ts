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

/** A chunk that reports usage or a finish reason (not the `null`s OpenAI puts in every chunk). */
const USAGE_OR_FINISH = /"(?:usage"\s*:\s*\{|finish_reason"\s*:\s*")/;

function chunkText(chunk: OpenAiChunk): string {
  let text = '';
  for (const choice of chunk.choices ?? []) {
    const delta = choice.delta;
    text +=
      (choice.text ?? '') +
      (delta?.content ?? '') +
      (delta?.reasoning_content ?? delta?.reasoning ?? '') +
      (delta?.tool_calls ?? []).map((call) => call.function?.arguments ?? '').join('');
  }
  return text;
}

function parseChunk(data: string): OpenAiChunk | null {
  try {
    return JSON.parse(data) as OpenAiChunk;
  } catch {
    return null;
  }
}

/**
 * OpenAI-format upstreams: each event is forwarded as it came (no re-serialising), except the usage-only chunk
 * when the client did not ask for it. Events are parsed until the first token; after it, a plain content delta
 * (most of a long stream) is forwarded unread and its text read only if the upstream never reports usage, so a
 * fast stream costs one pattern test per event instead of a parse and the objects it makes.
 */
export function openAiPassThrough(forwardUsage: boolean): ChunkConverter {
  /** Event data forwarded unread, in order; the text of any event after the first of them waits here too. */
  let unread: string[] | null = null;
  return {
    push(event, state, elapsedMs) {
      const data = event.data;
      if (data === '[DONE]') {
        state.sawDone = true;
        return SSE_DONE;
      }
      if (state.firstTokenMs !== null && !USAGE_OR_FINISH.test(data)) {
        if (unread) unread.push(data);
        else unread = [data];
        return sseLine(data);
      }
      const chunk = parseChunk(data);
      if (!chunk) return '';
      if (chunk.usage) state.usage = chunk.usage;
      for (const choice of chunk.choices ?? []) {
        if (choice.finish_reason) state.finishReason = choice.finish_reason;
      }
      // Text keeps its order: once some is unread, this event's joins it.
      if (unread) unread.push(data);
      else {
        const piece = chunkText(chunk);
        if (piece) {
          state.text += piece;
          state.firstTokenMs ??= elapsedMs;
        }
      }
      const usageOnly = chunk.usage && (chunk.choices ?? []).length === 0;
      if (usageOnly && !forwardUsage) return '';
      return sseLine(data);
    },
    end(state) {
      // Some OpenAI-compatible upstreams close without [DONE]; clients wait for it.
      return state.sawDone ? '' : SSE_DONE;
    },
    outputText(state) {
      if (unread) {
        for (const data of unread) {
          const chunk = parseChunk(data);
          if (chunk) state.text += chunkText(chunk);
        }
        unread = null;
      }
      return state.text;
    },
  };
}
