import type { ChunkConverter } from '../../stream/stream-state.js';
import { TextChunks } from '../text-chat.js';
import { type Prediction, predictionUsage } from './response.js';

/** The event the provider adds after Replicate's stream ends: the finished prediction, for its token counts. */
export const PREDICTION_EVENT = 'prediction';

/**
 * A prediction's stream (`urls.stream`) → OpenAI chunks. Events: `output` (the new text itself, not JSON),
 * `error` (`{"detail": …}`), `done` (`{}`, or a `reason` when canceled); then the provider's own `prediction`
 * event with the finished prediction, whose metrics are the usage.
 */
export function replicateToOpenAi(model: string, forwardUsage: boolean): ChunkConverter {
  const chunks = new TextChunks(model, forwardUsage);
  return {
    push(event, state, elapsedMs) {
      switch (event.event) {
        case 'output':
          return chunks.text(event.data, state, elapsedMs);
        case 'error': {
          let detail = event.data;
          try {
            detail = String((JSON.parse(event.data) as { detail?: unknown }).detail ?? event.data);
          } catch {
            // plain text
          }
          return chunks.error(detail || 'prediction failed', 'replicate_error');
        }
        case 'done': {
          const reason = (() => {
            try {
              return (JSON.parse(event.data) as { reason?: string }).reason;
            } catch {
              return undefined;
            }
          })();
          return reason === 'canceled'
            ? chunks.error('the prediction was canceled', 'replicate_error')
            : chunks.finish('stop', state);
        }
        case PREDICTION_EVENT: {
          try {
            state.usage = predictionUsage((JSON.parse(event.data) as Prediction).metrics) ?? state.usage;
          } catch {
            // unreadable: the usage is counted
          }
          return '';
        }
        default:
          return '';
      }
    },
    end: (state) => chunks.end(state),
  };
}
