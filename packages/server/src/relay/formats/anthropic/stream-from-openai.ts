import type { ChunkConverter, StreamState } from '../../stream/stream-state.js';
import type { Usage } from '../../types.js';
import { claudeMessageId, claudeStopReason, claudeUsageFromOpenAi } from './to-claude.js';

const event = (name: string, data: Record<string, unknown>) =>
  `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;

interface OpenAiDelta {
  content?: string | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
  reasoning_signature?: string | null;
  tool_calls?: Array<{ index?: number; id?: string; function?: { name?: string; arguments?: string } }>;
}

interface OpenAiChunk {
  id?: string;
  choices?: Array<{ delta?: OpenAiDelta; finish_reason?: string | null }>;
  usage?: Usage | null;
}

type OpenBlock = { kind: 'thinking'; signature: string } | { kind: 'text' } | { kind: 'tool'; callIndex: number };

/**
 * Wraps a converter that yields OpenAI chunks (any provider) and re-emits them as Anthropic Messages events, in the
 * order Anthropic's SDKs and Claude Code expect: message_start, then per block content_block_start → deltas
 * (thinking_delta + signature_delta, text_delta, input_json_delta for tool arguments) → content_block_stop, then
 * message_delta with the stop reason and usage, then message_stop. Nothing is buffered beyond the current chunk.
 */
export function openAiChunksToClaude(inner: ChunkConverter, model: string): ChunkConverter {
  let started = false;
  let index = -1;
  let open: OpenBlock | null = null;
  let finish: string | null = null;
  const seenCalls = new Set<number>();

  const start = (id: string | undefined) => {
    started = true;
    return event('message_start', {
      message: {
        id: claudeMessageId(id),
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        // OpenAI-format upstreams report usage at the end: message_delta carries the real figures.
        usage: { input_tokens: 0, output_tokens: 0 },
      },
    });
  };
  const close = () => {
    if (!open) return '';
    let out = '';
    if (open.kind === 'thinking' && open.signature) {
      out += event('content_block_delta', { index, delta: { type: 'signature_delta', signature: open.signature } });
    }
    open = null;
    return `${out}${event('content_block_stop', { index })}`;
  };
  const begin = (block: OpenBlock, content: Record<string, unknown>) => {
    const out = close();
    open = block;
    index += 1;
    return `${out}${event('content_block_start', { index, content_block: content })}`;
  };

  const onDelta = (delta: OpenAiDelta): string => {
    let out = '';
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (reasoning) {
      if (open?.kind !== 'thinking')
        out += begin({ kind: 'thinking', signature: '' }, { type: 'thinking', thinking: '', signature: '' });
      out += event('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: reasoning } });
    }
    if (delta.reasoning_signature) {
      if (open?.kind !== 'thinking')
        out += begin({ kind: 'thinking', signature: '' }, { type: 'thinking', thinking: '', signature: '' });
      (open as { signature: string }).signature += delta.reasoning_signature;
    }
    if (delta.content) {
      if (open?.kind !== 'text') out += begin({ kind: 'text' }, { type: 'text', text: '' });
      out += event('content_block_delta', { index, delta: { type: 'text_delta', text: delta.content } });
    }
    for (const call of delta.tool_calls ?? []) {
      const callIndex = call.index ?? 0;
      // Some upstreams repeat the id on every delta of a call: a call is a new block only the first time it is seen.
      if ((open?.kind !== 'tool' || open.callIndex !== callIndex) && !seenCalls.has(callIndex)) {
        seenCalls.add(callIndex);
        out += begin(
          { kind: 'tool', callIndex },
          {
            type: 'tool_use',
            id: call.id ?? `toolu_${Date.now().toString(36)}${callIndex}`,
            name: call.function?.name ?? '',
            input: {},
          },
        );
      }
      const args = call.function?.arguments;
      if (args) out += event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: args } });
    }
    return out;
  };

  const translate = (sse: string): string => {
    let out = '';
    for (const line of sse.split('\n')) {
      if (!line.startsWith('data: ')) continue;
      const data = line.slice(6);
      if (data === '[DONE]') continue;
      let chunk: OpenAiChunk;
      try {
        chunk = JSON.parse(data) as OpenAiChunk;
      } catch {
        continue;
      }
      if (!started) out += start(chunk.id);
      for (const choice of chunk.choices ?? []) {
        if (choice.delta) out += onDelta(choice.delta);
        if (choice.finish_reason) finish = choice.finish_reason;
      }
    }
    return out;
  };

  const finishMessage = (state: StreamState) =>
    `${close()}${event('message_delta', {
      delta: { stop_reason: claudeStopReason(finish ?? state.finishReason), stop_sequence: null },
      usage: claudeUsageFromOpenAi(state.usage),
    })}${event('message_stop', {})}`;

  return {
    push: (sseEvent, state, elapsedMs) => translate(inner.push(sseEvent, state, elapsedMs)),
    // Billing reads the upstream's text through the converter that read the upstream.
    outputText: inner.outputText?.bind(inner),
    end(state) {
      let out = translate(inner.end(state));
      if (!started) out += start(undefined);
      return out + finishMessage(state);
    },
  };
}
