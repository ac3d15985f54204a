import { type ChunkConverter, sseLine } from '../../stream/stream-state.js';
import { chatUsageOfResponses } from './responses-answer-to-chat.js';

interface ResponsesEvent {
  type?: string;
  delta?: string;
  response?: {
    usage?: { input_tokens?: number; output_tokens?: number; input_tokens_details?: { cached_tokens?: number } };
  };
}

/** The Responses API stream passes through unchanged (named events); usage comes with response.completed. */
export function responsesPassThrough(): ChunkConverter {
  return {
    push(event, state, elapsedMs) {
      try {
        const body = JSON.parse(event.data) as ResponsesEvent;
        if (body.type === 'response.output_text.delta' && body.delta) {
          state.text += body.delta;
          state.firstTokenMs ??= elapsedMs;
        }
        if (body.type === 'response.completed') {
          state.usage = chatUsageOfResponses(body.response?.usage);
          state.sawDone = true;
        }
      } catch {
        // forward what we cannot read
      }
      return `${event.event ? `event: ${event.event}\n` : ''}${sseLine(event.data)}`;
    },
    end: () => '',
  };
}
