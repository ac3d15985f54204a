import type { ChunkConverter } from '../../stream/stream-state.js';
import { jsonTextStream } from '../text-chat.js';
import { type DifyEvent, difyUsage, THINKING_CLOSE, THINKING_OPEN } from './response.js';

/** `DIFY_DEBUG` (default on, family): a workflow's and its nodes' progress is shown as reasoning text. */
const showProgress = () => process.env.DIFY_DEBUG?.toLowerCase() !== 'false';

function progressLine(event: DifyEvent): string {
  const kind = event.event ?? '';
  const finished = kind.endsWith('_finished') && event.data?.status ? ` ${event.data.status}` : '';
  if (kind.startsWith('workflow_')) return `Workflow: ${event.data?.workflow_id ?? ''}${finished}\n`;
  if (kind.startsWith('node_')) return `Node: ${event.data?.node_type ?? ''}${finished}\n`;
  return '';
}

/**
 * A Dify app's `streaming` answer → OpenAI chunks. Every event is a JSON `data:` line naming itself in `event`:
 * `message` / `agent_message` carry answer deltas, `agent_thought` an agent's thought (reasoning), `message_end`
 * the usage, `error` a failure after the stream began; workflow and node events are progress, `ping` keeps alive.
 */
export function difyToOpenAi(model: string, forwardUsage: boolean): ChunkConverter {
  let thinking = false;
  const progress = showProgress();
  return jsonTextStream<DifyEvent>(model, forwardUsage, (event, chunks, state, elapsedMs) => {
    switch (event.event) {
      case 'message':
      case 'agent_message': {
        const answer = event.answer ?? '';
        if (answer === THINKING_OPEN || answer === THINKING_CLOSE) {
          thinking = answer === THINKING_OPEN;
          return '';
        }
        return chunks.text(answer, state, elapsedMs, thinking ? 'reasoning_content' : 'content');
      }
      case 'agent_thought':
        return chunks.text(event.thought ? `${event.thought}\n` : '', state, elapsedMs, 'reasoning_content');
      case 'message_end':
        state.usage = difyUsage(event.metadata?.usage) ?? state.usage;
        return chunks.finish('stop', state);
      case 'error':
        return chunks.error(event.message ?? 'upstream error', event.code ?? String(event.status ?? 'dify_error'));
      default:
        return progress ? chunks.text(progressLine(event), state, elapsedMs, 'reasoning_content') : '';
    }
  });
}
