import type { ChunkConverter } from '../../stream/stream-state.js';
import type { ChatToolCall, Usage } from '../../types.js';
import { geminiFinishReason, geminiPartsOf, geminiUsageMetadata } from './from-gemini.js';
import { geminiUsage } from './response.js';
import type { GeminiPart, GeminiResponse } from './wire.js';

/** Gemini → Gemini (alt=sse): events go out exactly as they came; text and usage are read on the way. */
export function geminiPassThrough(): ChunkConverter {
  return {
    push(event, state, elapsedMs) {
      try {
        const chunk = JSON.parse(event.data) as GeminiResponse;
        const candidate = chunk.candidates?.[0];
        const text = (candidate?.content?.parts ?? [])
          .map((part) => part.text ?? (part.functionCall ? JSON.stringify(part.functionCall.args ?? {}) : ''))
          .join('');
        if (text) {
          state.text += text;
          state.firstTokenMs ??= elapsedMs;
        }
        if (chunk.usageMetadata) state.usage = geminiUsage(chunk.usageMetadata);
        if (candidate?.finishReason) state.finishReason = candidate.finishReason;
      } catch {
        // forward what we cannot read
      }
      return `data: ${event.data}\n\n`;
    },
    end: () => '',
  };
}

interface OpenAiChunk {
  choices?: Array<{
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      reasoning_signature?: string | null;
      tool_calls?: Array<{ index?: number; id?: string; function?: { name?: string; arguments?: string } }>;
    };
    finish_reason?: string | null;
  }>;
  usage?: Usage | null;
}

/**
 * Wraps a converter that yields OpenAI chunks (any provider) and re-emits Gemini streamGenerateContent records, so a
 * Gemini client (Google's SDKs, Gemini CLI) can be served by any channel. Text and thoughts go out as they come;
 * a function call is sent whole once its streamed arguments are complete (Gemini has no partial calls). Every
 * record carries the usage known so far; the last one the finish reason and the final usageMetadata.
 */
export function openAiChunksToGemini(inner: ChunkConverter, model: string): ChunkConverter {
  const record = (parts: GeminiPart[], candidate: Record<string, unknown> = {}, usage?: Usage | null) =>
    `data: ${JSON.stringify({
      candidates: [{ index: 0, content: { role: 'model', parts }, ...candidate }],
      ...(usage ? { usageMetadata: geminiUsageMetadata(usage) } : {}),
      modelVersion: model,
    })}\n\n`;
  let finish: string | null = null;
  let signature = '';
  const calls = new Map<number, ChatToolCall>();

  const flushCalls = (usage: Usage | null): string => {
    if (calls.size === 0) return '';
    const parts = geminiPartsOf({
      role: 'assistant',
      content: null,
      tool_calls: [...calls.values()],
      ...(signature ? { reasoning_signature: signature } : {}),
    });
    calls.clear();
    signature = '';
    return record(parts, {}, usage);
  };

  const translate = (sse: string, usage: Usage | null): string => {
    let out = '';
    for (const line of sse.split('\n')) {
      if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
      let chunk: OpenAiChunk;
      try {
        chunk = JSON.parse(line.slice(6)) as OpenAiChunk;
      } catch {
        continue;
      }
      for (const choice of chunk.choices ?? []) {
        const delta = choice.delta ?? {};
        const parts: GeminiPart[] = [];
        const reasoning = delta.reasoning_content ?? delta.reasoning;
        if (reasoning) parts.push({ text: reasoning, thought: true });
        if (delta.reasoning_signature) signature += delta.reasoning_signature;
        if (delta.content) parts.push({ text: delta.content });
        if (parts.length) out += record(parts, {}, usage);
        for (const call of delta.tool_calls ?? []) {
          const index = call.index ?? 0;
          const known = calls.get(index);
          if (!known) {
            calls.set(index, {
              id: call.id ?? `call_${index}`,
              type: 'function',
              function: { name: call.function?.name ?? '', arguments: call.function?.arguments ?? '' },
            });
          } else {
            if (call.function?.name) known.function.name ||= call.function.name;
            known.function.arguments += call.function?.arguments ?? '';
          }
        }
        if (choice.finish_reason) {
          finish = choice.finish_reason;
          out += flushCalls(usage);
        }
      }
    }
    return out;
  };
  return {
    push: (event, state, elapsedMs) => translate(inner.push(event, state, elapsedMs), state.usage),
    // Billing reads the upstream's text through the converter that read the upstream.
    outputText: inner.outputText?.bind(inner),
    end(state) {
      let out = translate(inner.end(state), state.usage);
      out += flushCalls(state.usage);
      const finishReason = geminiFinishReason(finish ?? state.finishReason) ?? 'STOP';
      return (
        out +
        record(
          [{ text: '' }],
          { finishReason },
          state.usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
        )
      );
    },
  };
}
