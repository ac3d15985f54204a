import { type ChunkConverter, SSE_DONE, sseLine } from '../../stream/stream-state.js';
import { ChunkHead } from '../openai-chat/chunk-head.js';
import { chatFinishOfResponses, chatUsageOfResponses, type ResponsesAnswer } from './responses-answer-to-chat.js';

interface ResponsesStreamEvent {
  type?: string;
  delta?: string;
  item_id?: string;
  output_index?: number;
  item?: Record<string, unknown>;
  response?: ResponsesAnswer;
  message?: string;
  code?: string;
}

/**
 * The Responses API's typed event stream → OpenAI chat chunks, event by event (nothing is held back): text,
 * refusals, reasoning summaries (as reasoning_content; the encrypted reasoning as reasoning_signature), function
 * calls with their streamed arguments; the finish reason and usage from response.completed / response.incomplete.
 * A failed response or an `error` event ends the stream with the error for the client, as OpenAI streams do.
 */
export function responsesToChatChunks(model: string, forwardUsage: boolean): ChunkConverter {
  const head = new ChunkHead(model);
  // Output index of each function call → its index among the answer's tool calls.
  const toolIndexes = new Map<number, number>();
  const failure = (message: string, type: string) => sseLine({ error: { message, type } }) + SSE_DONE;
  return {
    push(event, state, elapsedMs) {
      let body: ResponsesStreamEvent;
      try {
        body = JSON.parse(event.data) as ResponsesStreamEvent;
      } catch {
        return '';
      }
      const text = (delta: Record<string, unknown>, value: string | undefined) => {
        if (!value) return '';
        state.text += value;
        state.firstTokenMs ??= elapsedMs;
        return sseLine(head.chunk(delta));
      };
      switch (body.type) {
        case 'response.created':
          if (body.response?.id) head.id = `chatcmpl-${body.response.id}`;
          head.created = body.response?.created_at ?? head.created;
          return sseLine(head.chunk({ role: 'assistant', content: '' }));
        case 'response.output_text.delta':
          return text({ content: body.delta }, body.delta);
        case 'response.refusal.delta':
          return text({ refusal: body.delta }, body.delta);
        case 'response.reasoning_summary_text.delta':
        case 'response.reasoning_text.delta':
          return text({ reasoning_content: body.delta }, body.delta);
        case 'response.output_item.added': {
          const item = body.item;
          if (item?.type !== 'function_call') return '';
          const index = toolIndexes.size;
          toolIndexes.set(body.output_index ?? index, index);
          state.firstTokenMs ??= elapsedMs;
          const call = { name: String(item.name ?? ''), arguments: '' };
          return sseLine(head.chunk({ tool_calls: [{ index, id: item.call_id, type: 'function', function: call }] }));
        }
        case 'response.function_call_arguments.delta': {
          const index = toolIndexes.get(body.output_index ?? -1) ?? Math.max(0, toolIndexes.size - 1);
          return text({ tool_calls: [{ index, function: { arguments: body.delta } }] }, body.delta);
        }
        case 'response.output_item.done': {
          const item = body.item;
          if (item?.type !== 'reasoning' || typeof item.encrypted_content !== 'string') return '';
          return sseLine(head.chunk({ reasoning_signature: item.encrypted_content }));
        }
        case 'response.completed':
        case 'response.incomplete': {
          const response = body.response ?? {};
          state.sawDone = true;
          state.usage = chatUsageOfResponses(response.usage);
          state.finishReason = chatFinishOfResponses(response, toolIndexes.size > 0);
          const usage = head.usage(state, forwardUsage);
          return sseLine(head.chunk({}, state.finishReason)) + usage + SSE_DONE;
        }
        case 'response.failed':
          state.sawDone = true;
          return failure(
            body.response?.error?.message ?? 'upstream error',
            body.response?.error?.code ?? 'upstream_error',
          );
        case 'error':
          state.sawDone = true;
          return failure(body.message ?? 'upstream error', body.code ?? 'upstream_error');
        default:
          return '';
      }
    },
    end(state) {
      return state.sawDone ? '' : SSE_DONE;
    },
  };
}
