import { type ChunkConverter, SSE_DONE, type StreamState, sseLine } from '../../stream/stream-state.js';
import { ChunkHead } from '../openai-chat/chunk-head.js';
import { geminiFinish, geminiUsage, toolCallOf } from './response.js';
import type { GeminiResponse } from './wire.js';

/**
 * Gemini streamGenerateContent (alt=sse) → OpenAI chat chunks: text, thoughts (reasoning_content, their signature
 * as reasoning_signature) and function calls (Gemini sends each call whole, so it becomes one tool_calls delta);
 * usageMetadata is cumulative, so the last one is the usage.
 */
export function geminiToOpenAi(model: string, forwardUsage: boolean): ChunkConverter {
  const head = new ChunkHead(model, `chatcmpl-${Date.now()}`);
  let started = false;
  let calls = 0;
  return {
    push(event, state: StreamState, elapsedMs) {
      let body: GeminiResponse;
      try {
        body = JSON.parse(event.data) as GeminiResponse;
      } catch {
        return '';
      }
      let out = '';
      if (!started) {
        started = true;
        out += sseLine(head.chunk({ role: 'assistant', content: '' }));
      }
      const candidate = body.candidates?.[0];
      for (const part of candidate?.content?.parts ?? []) {
        if (part.thoughtSignature) out += sseLine(head.chunk({ reasoning_signature: part.thoughtSignature }));
        if (part.functionCall) {
          const call = toolCallOf(part, calls);
          state.text += call.function.arguments;
          state.firstTokenMs ??= elapsedMs;
          out += sseLine(head.chunk({ tool_calls: [{ index: calls++, ...call }] }));
          continue;
        }
        if (!part.text) continue;
        state.text += part.text;
        state.firstTokenMs ??= elapsedMs;
        out += sseLine(head.chunk(part.thought ? { reasoning_content: part.text } : { content: part.text }));
      }
      if (body.usageMetadata) state.usage = geminiUsage(body.usageMetadata);
      if (candidate?.finishReason) {
        state.finishReason = geminiFinish(candidate.finishReason, calls > 0);
        out += sseLine(head.chunk({}, state.finishReason));
      }
      return out;
    },
    end(state) {
      const usage = head.usage(state, forwardUsage);
      return usage + SSE_DONE;
    },
  };
}
