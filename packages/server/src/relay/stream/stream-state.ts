import type { Usage } from '../types.js';

/** What the relay learns while a stream passes through: billing needs it whether the stream ends well or not. */
export interface StreamState {
  usage: Usage | null;
  /** Generated text (content, reasoning, tool-call arguments) for counting when the upstream reports no usage. */
  text: string;
  /** Milliseconds from sending the request to the first content byte. */
  firstTokenMs: number | null;
  finishReason: string | null;
  sawDone: boolean;
}

export function newStreamState(): StreamState {
  return { usage: null, text: '', firstTokenMs: null, finishReason: null, sawDone: false };
}

/**
 * Turns upstream SSE events into OpenAI chat.completion.chunk lines for the client. `push` returns the SSE text
 * to write (possibly empty); `end` returns what to write when the upstream finished normally.
 */
export interface ChunkConverter {
  push(event: { event?: string; data: string }, state: StreamState, elapsedMs: number): string;
  end(state: StreamState): string;
  /**
   * The generated text, for a converter that reads it only when it is needed (an upstream that reported no usage);
   * without it, `state.text`.
   */
  outputText?(state: StreamState): string;
  /** A line whose field SSE does not define (Zhipu's legacy API sends its usage on a `meta:` line). */
  field?(name: string, value: string, state: StreamState): string;
}

export const sseLine = (payload: unknown) =>
  `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`;
export const SSE_DONE = 'data: [DONE]\n\n';
