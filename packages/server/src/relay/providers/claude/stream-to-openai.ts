import { type ChunkConverter, SSE_DONE, sseLine } from '../../stream/stream-state.js';
import { claudeFinishReason, claudeUsage } from './response.js';

interface ClaudeEvent {
  type?: string;
  message?: { id?: string; model?: string; usage?: Parameters<typeof claudeUsage>[0] };
  delta?: { type?: string; text?: string; thinking?: string; stop_reason?: string; partial_json?: string };
  usage?: {
    output_tokens?: number;
    input_tokens?: number;
    cache_read_input_tokens?: number;
    cache_creation_input_tokens?: number;
  };
  error?: { message?: string };
}

/** Anthropic Messages SSE → OpenAI chat chunks, with usage from message_start + message_delta. */
export function claudeToOpenAi(model: string, forwardUsage: boolean): ChunkConverter {
  let id = `chatcmpl-${Date.now()}`;
  let inputUsage: Parameters<typeof claudeUsage>[0] = {};
  let outputTokens = 0;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  return {
    push(event, state, elapsedMs) {
      let body: ClaudeEvent;
      try {
        body = JSON.parse(event.data) as ClaudeEvent;
      } catch {
        return '';
      }
      switch (body.type) {
        case 'message_start':
          id = body.message?.id ?? id;
          inputUsage = body.message?.usage ?? {};
          return sseLine(chunk({ role: 'assistant', content: '' }));
        case 'content_block_delta': {
          const text = body.delta?.text ?? body.delta?.thinking ?? body.delta?.partial_json ?? '';
          if (!text) return '';
          state.text += text;
          state.firstTokenMs ??= elapsedMs;
          return sseLine(
            chunk(body.delta?.type === 'thinking_delta' ? { reasoning_content: text } : { content: text }),
          );
        }
        case 'message_delta': {
          outputTokens = body.usage?.output_tokens ?? outputTokens;
          state.usage = claudeUsage({ ...inputUsage, ...body.usage, output_tokens: outputTokens });
          state.finishReason = claudeFinishReason(body.delta?.stop_reason);
          return sseLine(chunk({}, state.finishReason));
        }
        case 'message_stop': {
          state.sawDone = true;
          const usage = state.usage && forwardUsage ? sseLine({ ...chunk({}), choices: [], usage: state.usage }) : '';
          return usage + SSE_DONE;
        }
        default:
          return '';
      }
    },
    end(state) {
      return state.sawDone ? '' : SSE_DONE;
    },
  };
}
