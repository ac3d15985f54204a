import { type ChunkConverter, SSE_DONE, sseLine } from '../../stream/stream-state.js';
import { ChunkHead } from '../openai-chat/chunk-head.js';
import { claudeFinishReason, claudeUsage } from './response.js';
import type { ClaudeUsage } from './wire.js';

interface ClaudeEvent {
  type?: string;
  index?: number;
  message?: { id?: string; model?: string; usage?: ClaudeUsage };
  content_block?: { type?: string; id?: string; name?: string };
  delta?: {
    type?: string;
    text?: string;
    thinking?: string;
    signature?: string;
    partial_json?: string;
    stop_reason?: string;
  };
  usage?: ClaudeUsage;
  error?: { type?: string; message?: string };
}

/**
 * Anthropic Messages SSE → OpenAI chat chunks: text, thinking (reasoning_content, and its signature as the
 * gateway's reasoning_signature), tool_use blocks as tool_calls with streamed arguments; usage from message_start +
 * message_delta. An `error` event ends the stream with the error for the client, as OpenAI streams do.
 */
export function claudeToOpenAi(model: string, forwardUsage: boolean): ChunkConverter {
  const head = new ChunkHead(model, `chatcmpl-${Date.now()}`);
  let inputUsage: ClaudeUsage = {};
  let outputTokens = 0;
  let toolIndex = -1;
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
          head.id = body.message?.id ?? head.id;
          inputUsage = body.message?.usage ?? {};
          return sseLine(head.chunk({ role: 'assistant', content: '' }));
        case 'content_block_start': {
          const block = body.content_block;
          if (block?.type !== 'tool_use') return '';
          toolIndex += 1;
          state.firstTokenMs ??= elapsedMs;
          return sseLine(
            head.chunk({
              tool_calls: [
                { index: toolIndex, id: block.id, type: 'function', function: { name: block.name, arguments: '' } },
              ],
            }),
          );
        }
        case 'content_block_delta': {
          const delta = body.delta;
          if (delta?.type === 'signature_delta')
            return delta.signature ? sseLine(head.chunk({ reasoning_signature: delta.signature })) : '';
          const text = delta?.text ?? delta?.thinking ?? delta?.partial_json ?? '';
          if (!text) return '';
          state.text += text;
          state.firstTokenMs ??= elapsedMs;
          if (delta?.type === 'input_json_delta') {
            return sseLine(head.chunk({ tool_calls: [{ index: toolIndex, function: { arguments: text } }] }));
          }
          return sseLine(
            head.chunk(delta?.type === 'thinking_delta' ? { reasoning_content: text } : { content: text }),
          );
        }
        case 'message_delta': {
          outputTokens = body.usage?.output_tokens ?? outputTokens;
          state.usage = claudeUsage({ ...inputUsage, ...body.usage, output_tokens: outputTokens });
          state.finishReason = claudeFinishReason(body.delta?.stop_reason);
          return sseLine(head.chunk({}, state.finishReason));
        }
        case 'message_stop': {
          state.sawDone = true;
          const usage = head.usage(state, forwardUsage);
          return usage + SSE_DONE;
        }
        case 'error':
          state.sawDone = true;
          return (
            sseLine({
              error: { message: body.error?.message ?? 'upstream error', type: body.error?.type ?? 'upstream_error' },
            }) + SSE_DONE
          );
        default:
          return '';
      }
    },
    end(state) {
      return state.sawDone ? '' : SSE_DONE;
    },
  };
}
