import { ChunkHead } from '../../formats/openai-chat/chunk-head.js';
import { type ChunkConverter, SSE_DONE, sseLine } from '../../stream/stream-state.js';
import { cohereFinishReason, cohereUsage } from './response.js';
import type { CohereStreamEvent } from './wire.js';

/**
 * Cohere's v2 chat stream → OpenAI chunks. Events: message-start (the id), content-start / content-delta /
 * content-end (text, or thinking for reasoning models), tool-plan-delta (the model's plan before calling tools,
 * given as reasoning like in whole answers), tool-call-start (id and name) / tool-call-delta (argument text) /
 * tool-call-end, citation-start / citation-end (not carried), and message-end with the finish reason and usage.
 */
export function cohereToOpenAi(model: string, forwardUsage: boolean): ChunkConverter {
  const head = new ChunkHead(model);
  let started = false;
  let toolIndex = -1;
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => sseLine(head.chunk(delta, finish));
  // The role travels with the first delta, as OpenAI streams do.
  const withRole = (delta: Record<string, unknown>) => {
    if (started) return delta;
    started = true;
    return { role: 'assistant', ...delta };
  };
  return {
    push(event, state, elapsedMs) {
      let body: CohereStreamEvent;
      try {
        body = JSON.parse(event.data) as CohereStreamEvent;
      } catch {
        return '';
      }
      const message = body.delta?.message;
      switch (body.type ?? event.event) {
        case 'message-start':
          head.id = body.id ?? head.id;
          return '';
        case 'content-start':
        case 'content-delta':
        case 'tool-plan-delta': {
          const text = message?.content?.text ?? '';
          const reasoning = message?.content?.thinking ?? message?.tool_plan ?? '';
          if (!text && !reasoning) return '';
          state.text += text + reasoning;
          state.firstTokenMs ??= elapsedMs;
          return chunk(withRole(text ? { content: text } : { reasoning_content: reasoning }));
        }
        case 'tool-call-start': {
          const call = message?.tool_calls;
          toolIndex += 1;
          state.firstTokenMs ??= elapsedMs;
          const name = call?.function?.name ?? '';
          const args = call?.function?.arguments ?? '';
          state.text += name + args;
          return chunk(
            withRole({
              tool_calls: [{ index: toolIndex, id: call?.id, type: 'function', function: { name, arguments: args } }],
            }),
          );
        }
        case 'tool-call-delta': {
          const args = message?.tool_calls?.function?.arguments ?? '';
          if (!args) return '';
          state.text += args;
          return chunk({ tool_calls: [{ index: toolIndex, function: { arguments: args } }] });
        }
        case 'message-end': {
          state.sawDone = true;
          state.usage = cohereUsage(body.delta?.usage) ?? state.usage;
          // A generation that failed midway: OpenAI clients raise an `error` chunk as an API error.
          if (body.delta?.finish_reason === 'ERROR' && body.delta.error) {
            return (
              sseLine({ error: { message: body.delta.error, type: 'upstream_error', code: 'cohere_error' } }) + SSE_DONE
            );
          }
          state.finishReason = cohereFinishReason(body.delta?.finish_reason);
          const usage = head.usage(state, forwardUsage);
          return chunk({}, state.finishReason) + usage + SSE_DONE;
        }
        default:
          return '';
      }
    },
    // A stream cut off before message-end still ends the client's stream properly; the conveyor bills what came.
    end: (state) => (state.sawDone ? '' : SSE_DONE),
  };
}
