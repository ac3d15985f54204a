import type { ChunkConverter } from '../../stream/stream-state.js';
import { claudeStopReason, claudeUsageFromOpenAi } from './from-claude.js';

const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

interface OpenAiChunk {
  choices?: Array<{ delta?: { content?: string | null }; finish_reason?: string | null }>;
}

/**
 * Wraps a converter that yields OpenAI chunks (any provider) and re-emits them as Anthropic Messages events, so a
 * Claude client can be served by any channel. Usage and text are tracked by the inner converter.
 */
export function openAiChunksToClaude(inner: ChunkConverter, model: string): ChunkConverter {
  let started = false;
  let blockOpen = false;
  let finish: string | null = null;
  const start = () =>
    event('message_start', {
      type: 'message_start',
      message: {
        id: `msg_${Date.now()}`,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        usage: { input_tokens: 0, output_tokens: 0 },
      },
    });
  const translate = (sse: string): string => {
    let out = '';
    for (const line of sse.split('\n')) {
      if (!line.startsWith('data: ')) continue;
      const data = line.slice(6);
      if (data === '[DONE]') continue;
      let chunk: OpenAiChunk;
      try {
        chunk = JSON.parse(data) as OpenAiChunk;
      } catch {
        continue;
      }
      if (!started) {
        started = true;
        out += start();
      }
      for (const choice of chunk.choices ?? []) {
        const text = choice.delta?.content;
        if (text) {
          if (!blockOpen) {
            blockOpen = true;
            out += event('content_block_start', {
              type: 'content_block_start',
              index: 0,
              content_block: { type: 'text', text: '' },
            });
          }
          out += event('content_block_delta', {
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'text_delta', text },
          });
        }
        if (choice.finish_reason) finish = choice.finish_reason;
      }
    }
    return out;
  };
  return {
    push(sseEvent, state, elapsedMs) {
      return translate(inner.push(sseEvent, state, elapsedMs));
    },
    end(state) {
      let out = translate(inner.end(state));
      if (!started) out += start();
      if (blockOpen) out += event('content_block_stop', { type: 'content_block_stop', index: 0 });
      out += event('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: claudeStopReason(finish ?? state.finishReason), stop_sequence: null },
        usage: claudeUsageFromOpenAi(state.usage ?? undefined),
      });
      out += event('message_stop', { type: 'message_stop' });
      return out;
    },
  };
}
