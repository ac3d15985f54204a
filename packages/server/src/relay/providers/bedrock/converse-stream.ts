import { ChunkHead } from '../../formats/openai-chat/chunk-head.js';
import { type ChunkConverter, SSE_DONE, sseLine } from '../../stream/stream-state.js';
import { converseFinishReason, converseUsage } from './converse-response.js';
import type { ConverseUsage } from './converse-wire.js';

/** One ConverseStream event's payload (its name arrives as the SSE event name, see transport.ts). */
interface ConverseEvent {
  contentBlockIndex?: number;
  start?: { toolUse?: { toolUseId?: string; name?: string } };
  delta?: {
    text?: string;
    toolUse?: { input?: string };
    reasoningContent?: { text?: string; signature?: string };
  };
  stopReason?: string;
  usage?: ConverseUsage;
}

/**
 * ConverseStream events → OpenAI chat chunks: text, reasoning (and its signature as the gateway's
 * reasoning_signature), toolUse blocks as tool_calls with streamed arguments. The finish reason comes with
 * `messageStop`; the usage with `metadata`, after it, so the usage chunk and `[DONE]` are written at the end.
 */
export function converseToOpenAi(model: string, forwardUsage: boolean): ChunkConverter {
  const head = new ChunkHead(model, `chatcmpl-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`);
  /** Converse numbers all content blocks; OpenAI numbers tool calls alone. */
  const toolIndexOfBlock = new Map<number, number>();
  let started = false;
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => {
    const role = started ? {} : { role: 'assistant' };
    started = true;
    return sseLine(head.chunk({ ...role, ...delta }, finish));
  };
  return {
    push(event, state, elapsedMs) {
      let body: ConverseEvent;
      try {
        body = JSON.parse(event.data) as ConverseEvent;
      } catch {
        return '';
      }
      const block = body.contentBlockIndex ?? 0;
      switch (event.event) {
        case 'messageStart':
          return chunk({ content: '' });
        case 'contentBlockStart': {
          const tool = body.start?.toolUse;
          if (!tool) return '';
          const index = toolIndexOfBlock.size;
          toolIndexOfBlock.set(block, index);
          state.firstTokenMs ??= elapsedMs;
          return chunk({
            tool_calls: [{ index, id: tool.toolUseId, type: 'function', function: { name: tool.name, arguments: '' } }],
          });
        }
        case 'contentBlockDelta': {
          const delta = body.delta ?? {};
          const toolIndex = toolIndexOfBlock.get(block);
          const text = delta.text ?? delta.reasoningContent?.text ?? delta.toolUse?.input ?? '';
          if (delta.reasoningContent?.signature)
            return chunk({ reasoning_signature: delta.reasoningContent.signature });
          if (!text) return '';
          state.text += text;
          state.firstTokenMs ??= elapsedMs;
          if (delta.toolUse && toolIndex !== undefined) {
            return chunk({ tool_calls: [{ index: toolIndex, function: { arguments: text } }] });
          }
          return chunk(delta.reasoningContent ? { reasoning_content: text } : { content: text });
        }
        case 'messageStop':
          state.finishReason = converseFinishReason(body.stopReason);
          return chunk({}, state.finishReason);
        case 'metadata':
          state.usage = converseUsage(body.usage) ?? state.usage;
          return '';
        default:
          return '';
      }
    },
    end(state) {
      state.sawDone = true;
      const usage = head.usage(state, forwardUsage);
      return usage + SSE_DONE;
    },
  };
}
