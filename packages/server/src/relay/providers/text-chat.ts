import { ChunkHead } from '../formats/openai-chat/chunk-head.js';
import { type ChunkConverter, SSE_DONE, type StreamState, sseLine } from '../stream/stream-state.js';
import type { ChatMessage, ChatResponse, Usage } from '../types.js';

/** A usage block from the three counts most vendors report. */
export function usageOf(prompt: number, completion: number, total = prompt + completion): Usage {
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total };
}

/** An OpenAI chat answer with one choice, for vendors whose answer is a single text (and maybe reasoning). */
export function textCompletion(answer: {
  id: string;
  model: string;
  content: string;
  reasoning?: string;
  finishReason: string;
  usage: Usage | null;
}): ChatResponse {
  const message: ChatMessage = { role: 'assistant', content: answer.content };
  if (answer.reasoning) message.reasoning_content = answer.reasoning;
  const response: ChatResponse = {
    id: answer.id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: answer.model,
    choices: [{ index: 0, message, finish_reason: answer.finishReason }],
  };
  if (answer.usage) response.usage = answer.usage;
  return response;
}

/**
 * OpenAI chat chunks for a vendor stream of text deltas: the role comes with the first chunk, the usage chunk at the
 * end when the client asked for it, then `[DONE]`. Text and first-token time are recorded for billing.
 */
export class TextChunks {
  private readonly head: ChunkHead;
  private started = false;

  constructor(
    model: string,
    private readonly forwardUsage: boolean,
  ) {
    this.head = new ChunkHead(model, `chatcmpl-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`);
  }

  private chunk(delta: Record<string, unknown>, finishReason: string | null = null): string {
    return sseLine(this.head.chunk(delta, finishReason));
  }

  /** A content (or reasoning) delta; nothing for an empty one. */
  text(
    text: string,
    state: StreamState,
    elapsedMs: number,
    field: 'content' | 'reasoning_content' = 'content',
  ): string {
    if (!text) return '';
    state.text += text;
    state.firstTokenMs ??= elapsedMs;
    const role = this.started ? {} : { role: 'assistant' };
    this.started = true;
    return this.chunk({ ...role, [field]: text });
  }

  finish(reason: string, state: StreamState): string {
    if (state.finishReason) return '';
    state.finishReason = reason;
    return this.chunk({}, reason);
  }

  /** The upstream broke off with an error mid-stream: OpenAI clients raise an `error` chunk as an API error. */
  error(message: string, code: string): string {
    return sseLine({ error: { message, type: 'upstream_error', code } });
  }

  end(state: StreamState): string {
    return this.head.usage(state, this.forwardUsage) + SSE_DONE;
  }
}

/** A converter for a vendor stream of JSON events: each readable event goes to `convert`, unreadable ones are skipped. */
export function jsonTextStream<Event>(
  model: string,
  forwardUsage: boolean,
  convert: (event: Event, chunks: TextChunks, state: StreamState, elapsedMs: number) => string,
): ChunkConverter {
  const chunks = new TextChunks(model, forwardUsage);
  return {
    push(event, state, elapsedMs) {
      let parsed: Event;
      try {
        parsed = JSON.parse(event.data) as Event;
      } catch {
        return '';
      }
      return convert(parsed, chunks, state, elapsedMs);
    },
    end: (state) => chunks.end(state),
  };
}
