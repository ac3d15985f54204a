import { type ChunkConverter, sseLine } from '../../stream/stream-state.js';
import { chatUsageOfResponses } from './responses-answer-to-chat.js';

interface ResponsesEvent {
  type?: string;
  delta?: string;
  response?: {
    id?: unknown;
    usage?: { input_tokens?: number; output_tokens?: number; input_tokens_details?: { cached_tokens?: number } };
  };
}

/**
 * The Responses API stream passes through unchanged (named events); usage comes with response.completed.
 * `created` hears the response's id (a stored response is remembered with its channel).
 */
export function responsesPassThrough(created?: (id: string) => void): ChunkConverter {
  return {
    push(event, state, elapsedMs) {
      try {
        const body = JSON.parse(event.data) as ResponsesEvent;
        if (body.type === 'response.output_text.delta' && body.delta) {
          state.text += body.delta;
          state.firstTokenMs ??= elapsedMs;
        }
        if (created && body.type === 'response.created' && typeof body.response?.id === 'string') {
          created(body.response.id);
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
