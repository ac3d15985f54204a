import type { ChunkConverter, StreamState } from '../../stream/stream-state.js';
import type { ChatToolCall } from '../../types.js';
import { callItem, messageItem, outputTextPart, reasoningItem, responsesUsageFromChat } from './chat-to-responses.js';
import { responseObject } from './response-object.js';
import { toolNamesOf } from './responses-to-chat.js';
import type { ResponsesRequest } from './responses-wire.js';

interface ChatDelta {
  content?: string | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
  reasoning_signature?: string | null;
  tool_calls?: Array<{ index?: number; id?: string; function?: { name?: string; arguments?: string } }>;
}

interface ChatChunk {
  id?: string;
  choices?: Array<{ delta?: ChatDelta; finish_reason?: string | null }>;
}

type Open =
  | { kind: 'reasoning'; id: string; text: string; signature: string }
  | { kind: 'message'; id: string; text: string }
  | { kind: 'call'; index: number; call: ChatToolCall; custom: boolean };

/**
 * Wraps a converter that yields OpenAI chat chunks (any chat provider) and re-emits the Responses API's typed event
 * sequence with sequence numbers, as the openai SDK and Codex CLI read it: response.created → in_progress → per
 * output item (reasoning summary, message text, function call arguments) added → deltas → done → response.completed
 * with the whole response and its usage. A custom (freeform) tool call is sent once its input is complete.
 */
export function chatChunksToResponses(inner: ChunkConverter, model: string, request: ResponsesRequest): ChunkConverter {
  const names = toolNamesOf(request);
  let sequence = 0;
  let started = false;
  let responseId = `resp_${Date.now().toString(36)}`;
  const createdAt = Math.floor(Date.now() / 1000);
  const output: Array<Record<string, unknown>> = [];
  const seenCalls = new Set<number>();
  let open: Open | null = null;
  let finish: string | null = null;

  const event = (type: string, data: Record<string, unknown>) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`;
  const frame = (status: string, state: StreamState | null) =>
    responseObject(request, {
      id: responseId,
      model,
      createdAt,
      status,
      output: status === 'in_progress' ? [] : output,
      usage: state ? responsesUsageFromChat(state.usage) : null,
      finish,
    });

  const close = (): string => {
    const current = open;
    if (!current) return '';
    open = null;
    const index = output.length;
    if (current.kind === 'reasoning') {
      const item = reasoningItem(current.id, current.text, current.signature || undefined);
      output.push(item);
      const part = { type: 'summary_text', text: current.text };
      return (
        event('response.reasoning_summary_text.done', {
          item_id: current.id,
          output_index: index,
          summary_index: 0,
          text: current.text,
        }) +
        event('response.reasoning_summary_part.done', {
          item_id: current.id,
          output_index: index,
          summary_index: 0,
          part,
        }) +
        event('response.output_item.done', { output_index: index, item })
      );
    }
    if (current.kind === 'message') {
      const item = messageItem(current.id, current.text);
      output.push(item);
      const part = outputTextPart(current.text);
      return (
        event('response.output_text.done', {
          item_id: current.id,
          output_index: index,
          content_index: 0,
          text: current.text,
          logprobs: [],
        }) +
        event('response.content_part.done', { item_id: current.id, output_index: index, content_index: 0, part }) +
        event('response.output_item.done', { output_index: index, item })
      );
    }
    const item = callItem(current.call, names);
    output.push(item);
    if (current.custom) {
      // Freeform input is only known once the call's arguments are complete: it goes out whole.
      const pending = { ...item, input: '', status: 'in_progress' };
      return (
        event('response.output_item.added', { output_index: index, item: pending }) +
        event('response.custom_tool_call_input.delta', { item_id: item.id, output_index: index, delta: item.input }) +
        event('response.custom_tool_call_input.done', { item_id: item.id, output_index: index, input: item.input }) +
        event('response.output_item.done', { output_index: index, item })
      );
    }
    return (
      event('response.function_call_arguments.done', {
        item_id: item.id,
        output_index: index,
        arguments: current.call.function.arguments,
      }) + event('response.output_item.done', { output_index: index, item })
    );
  };

  const onDelta = (delta: ChatDelta, base: string): string => {
    let out = '';
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (reasoning || delta.reasoning_signature) {
      if (open?.kind !== 'reasoning') {
        out += close();
        open = { kind: 'reasoning', id: `rs_${base}_${output.length}`, text: '', signature: '' };
        out += event('response.output_item.added', {
          output_index: output.length,
          item: reasoningItem(open.id, '', undefined),
        });
        out += event('response.reasoning_summary_part.added', {
          item_id: open.id,
          output_index: output.length,
          summary_index: 0,
          part: { type: 'summary_text', text: '' },
        });
      }
      const current = open as Extract<Open, { kind: 'reasoning' }>;
      if (delta.reasoning_signature) current.signature += delta.reasoning_signature;
      if (reasoning) {
        current.text += reasoning;
        out += event('response.reasoning_summary_text.delta', {
          item_id: current.id,
          output_index: output.length,
          summary_index: 0,
          delta: reasoning,
        });
      }
    }
    if (delta.content) {
      if (open?.kind !== 'message') {
        out += close();
        open = { kind: 'message', id: `msg_${base}_${output.length}`, text: '' };
        out += event('response.output_item.added', {
          output_index: output.length,
          item: { ...messageItem(open.id, '', 'in_progress'), content: [] },
        });
        out += event('response.content_part.added', {
          item_id: open.id,
          output_index: output.length,
          content_index: 0,
          part: outputTextPart(''),
        });
      }
      const current = open as Extract<Open, { kind: 'message' }>;
      current.text += delta.content;
      out += event('response.output_text.delta', {
        item_id: current.id,
        output_index: output.length,
        content_index: 0,
        delta: delta.content,
        logprobs: [],
      });
    }
    for (const call of delta.tool_calls ?? []) {
      const index = call.index ?? 0;
      if (!seenCalls.has(index)) {
        seenCalls.add(index);
        out += close();
        const name = call.function?.name ?? '';
        const started: ChatToolCall = {
          id: call.id ?? `call_${base}_${index}`,
          type: 'function',
          function: { name, arguments: '' },
        };
        open = { kind: 'call', index, call: started, custom: names.custom.has(name) };
        if (!open.custom) {
          out += event('response.output_item.added', {
            output_index: output.length,
            item: callItem(started, names, 'in_progress'),
          });
        }
      }
      const current = open?.kind === 'call' && open.index === index ? open : null;
      const args = call.function?.arguments;
      if (!current || !args) continue;
      current.call.function.arguments += args;
      if (!current.custom) {
        out += event('response.function_call_arguments.delta', {
          item_id: `fc_${current.call.id}`,
          output_index: output.length,
          delta: args,
        });
      }
    }
    return out;
  };

  const translate = (sse: string): string => {
    let out = '';
    for (const line of sse.split('\n')) {
      if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
      let chunk: ChatChunk;
      try {
        chunk = JSON.parse(line.slice(6)) as ChatChunk;
      } catch {
        continue;
      }
      if (!started) {
        started = true;
        if (chunk.id) responseId = `resp_${chunk.id}`;
        out += event('response.created', { response: frame('in_progress', null) });
        out += event('response.in_progress', { response: frame('in_progress', null) });
      }
      for (const choice of chunk.choices ?? []) {
        if (choice.delta) out += onDelta(choice.delta, chunk.id ?? responseId);
        if (choice.finish_reason) finish = choice.finish_reason;
      }
    }
    return out;
  };

  return {
    push: (sseEvent, state, elapsedMs) => translate(inner.push(sseEvent, state, elapsedMs)),
    // Billing reads the upstream's text through the converter that read the upstream.
    outputText: inner.outputText?.bind(inner),
    end(state) {
      let out = translate(inner.end(state));
      if (!started) {
        started = true;
        out += event('response.created', { response: frame('in_progress', null) });
      }
      out += close();
      return out + event('response.completed', { response: frame('completed', state) });
    },
  };
}
