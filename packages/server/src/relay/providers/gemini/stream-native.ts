import type { ChunkConverter } from '../../stream/stream-state.js';
import { geminiFinishReason, geminiUsageMetadata } from './from-gemini.js';
import { geminiUsage } from './response.js';

interface GeminiChunk {
  candidates?: Array<{ content?: { parts?: Array<{ text?: string }> }; finishReason?: string }>;
  usageMetadata?: Parameters<typeof geminiUsage>[0];
}

/** Gemini → Gemini (alt=sse): events go out exactly as they came; text and usage are read on the way. */
export function geminiPassThrough(): ChunkConverter {
  return {
    push(event, state, elapsedMs) {
      try {
        const chunk = JSON.parse(event.data) as GeminiChunk;
        const candidate = chunk.candidates?.[0];
        const text = (candidate?.content?.parts ?? []).map((part) => part.text ?? '').join('');
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
    delta?: { content?: string | null; reasoning_content?: string | null };
    finish_reason?: string | null;
  }>;
}

/**
 * Wraps a converter that yields OpenAI chunks (any provider) and re-emits Gemini streamGenerateContent records, so a
 * Gemini client can be served by any channel. The last record carries the finish reason and usageMetadata.
 */
export function openAiChunksToGemini(inner: ChunkConverter, model: string): ChunkConverter {
  const record = (
    parts: Array<{ text: string; thought?: boolean }>,
    candidate: Record<string, unknown> = {},
    top: Record<string, unknown> = {},
  ) =>
    `data: ${JSON.stringify({ candidates: [{ index: 0, content: { role: 'model', parts }, ...candidate }], ...top, modelVersion: model })}\n\n`;
  let finish: string | null = null;
  const translate = (sse: string): string => {
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
        const parts: Array<{ text: string; thought?: boolean }> = [];
        if (choice.delta?.reasoning_content) parts.push({ text: choice.delta.reasoning_content, thought: true });
        if (choice.delta?.content) parts.push({ text: choice.delta.content });
        if (parts.length) out += record(parts);
        if (choice.finish_reason) finish = choice.finish_reason;
      }
    }
    return out;
  };
  return {
    push: (event, state, elapsedMs) => translate(inner.push(event, state, elapsedMs)),
    end(state) {
      const out = translate(inner.end(state));
      const finishReason = geminiFinishReason(finish ?? state.finishReason) ?? 'STOP';
      return out + record([{ text: '' }], { finishReason }, { usageMetadata: geminiUsageMetadata(state.usage) });
    },
  };
}
