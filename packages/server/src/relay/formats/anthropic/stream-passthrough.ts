import type { ChunkConverter } from '../../stream/stream-state.js';
import { claudeFinishReason, claudeUsage } from './response.js';

interface ClaudeEvent {
  type?: string;
  message?: { usage?: Parameters<typeof claudeUsage>[0] };
  delta?: { text?: string; thinking?: string; partial_json?: string; stop_reason?: string };
  usage?: { output_tokens?: number };
}

/** Claude → Claude: events go out exactly as they came; usage and text are read on the way for billing. */
export function claudePassThrough(): ChunkConverter {
  let input: Parameters<typeof claudeUsage>[0] = {};
  return {
    push(event, state, elapsedMs) {
      try {
        const body = JSON.parse(event.data) as ClaudeEvent;
        if (body.type === 'message_start') input = body.message?.usage ?? {};
        if (body.type === 'content_block_delta') {
          const text = body.delta?.text ?? body.delta?.thinking ?? body.delta?.partial_json ?? '';
          if (text) {
            state.text += text;
            state.firstTokenMs ??= elapsedMs;
          }
        }
        if (body.type === 'message_delta') {
          state.usage = claudeUsage({ ...input, output_tokens: body.usage?.output_tokens ?? 0 });
          state.finishReason = claudeFinishReason(body.delta?.stop_reason);
        }
        if (body.type === 'message_stop') state.sawDone = true;
      } catch {
        // forward what we cannot read
      }
      return `${event.event ? `event: ${event.event}\n` : ''}data: ${event.data}\n\n`;
    },
    end: () => '',
  };
}
