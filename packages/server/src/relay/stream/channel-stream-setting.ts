import { type ChunkConverter, SSE_DONE, sseLine } from './stream-state.js';

interface Delta {
  role?: string;
  content?: string | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
  tool_calls?: unknown;
}

interface Chunk {
  id?: string;
  object?: string;
  created?: number;
  model?: string;
  system_fingerprint?: string;
  choices?: Array<{ index?: number; delta?: Delta; logprobs?: unknown; finish_reason?: string | null }>;
  usage?: unknown;
}

const STANDARD_DELTA_FIELDS = ['role', 'content', 'reasoning_content', 'tool_calls'] as const;

/** `force_format`: only the fields of OpenAI's chunk schema, for clients that choke on vendor extras. */
function standardChunk(chunk: Chunk): Chunk {
  const result: Chunk = {
    id: chunk.id ?? '',
    object: 'chat.completion.chunk',
    created: chunk.created ?? Math.floor(Date.now() / 1000),
    model: chunk.model ?? '',
  };
  if (chunk.system_fingerprint) result.system_fingerprint = chunk.system_fingerprint;
  result.choices = (chunk.choices ?? []).map((choice, position) => {
    const delta: Delta = {};
    for (const field of STANDARD_DELTA_FIELDS) {
      if (choice.delta?.[field] !== undefined) (delta as Record<string, unknown>)[field] = choice.delta[field];
    }
    return { index: choice.index ?? position, delta, finish_reason: choice.finish_reason ?? null };
  });
  if (chunk.usage) result.usage = chunk.usage;
  return result;
}

/**
 * A channel's stream settings (`setting` JSON), applied to what the client receives:
 * - `thinking_to_content`: reasoning deltas become ordinary content wrapped in `<think>…</think>`, for clients that
 *   only show `content`;
 * - `force_format`: every chunk re-serialised in OpenAI's standard shape.
 * Billing is unaffected: the inner converter has already recorded text and usage.
 */
export function withChannelStreamSetting(
  converter: ChunkConverter,
  setting: Record<string, unknown> | null,
): ChunkConverter {
  const thinkingToContent = setting?.thinking_to_content === true;
  const forceFormat = setting?.force_format === true;
  if (!thinkingToContent && !forceFormat) return converter;
  let thinking = false;

  const moveReasoning = (chunk: Chunk) => {
    for (const choice of chunk.choices ?? []) {
      const delta = choice.delta;
      if (!delta) continue;
      const reasoning = delta.reasoning_content ?? delta.reasoning ?? '';
      delete delta.reasoning_content;
      delete delta.reasoning;
      if (reasoning) {
        delta.content = `${thinking ? '' : '<think>\n'}${reasoning}${delta.content ?? ''}`;
        thinking = true;
      } else if (thinking && (delta.content || choice.finish_reason)) {
        delta.content = `\n</think>\n${delta.content ?? ''}`;
        thinking = false;
      }
    }
  };

  const rewrite = (output: string): string => {
    if (!output) return output;
    return output
      .split('\n\n')
      .map((block) => {
        if (!block.startsWith('data: ') || block === SSE_DONE.trimEnd()) return block;
        let chunk: Chunk;
        try {
          chunk = JSON.parse(block.slice(6)) as Chunk;
        } catch {
          return block;
        }
        if (thinkingToContent) moveReasoning(chunk);
        return sseLine(forceFormat ? standardChunk(chunk) : chunk).trimEnd();
      })
      .join('\n\n');
  };

  return {
    push: (event, state, elapsedMs) => rewrite(converter.push(event, state, elapsedMs)),
    end: (state) => rewrite(converter.end(state)),
    field: converter.field && ((name, value, state) => rewrite(converter.field!(name, value, state))),
    // The billing text is the upstream's, read by the wrapped converter (it may have left some of it unread).
    outputText: converter.outputText?.bind(converter),
  };
}
