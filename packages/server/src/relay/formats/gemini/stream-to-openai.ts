import { type ChunkConverter, SSE_DONE, type StreamState, sseLine } from '../../stream/stream-state.js';
import { geminiFinish, geminiUsage, toolCallOf } from './response.js';
import type { GeminiResponse } from './wire.js';

/**
 * Gemini streamGenerateContent (alt=sse) → OpenAI chat chunks: text, thoughts (reasoning_content, their signature
 * as reasoning_signature) and function calls (Gemini sends each call whole, so it becomes one tool_calls delta);
 * usageMetadata is cumulative, so the last one is the usage.
 */
export function geminiToOpenAi(model: string, forwardUsage: boolean): ChunkConverter {
  const id = `chatcmpl-${Date.now()}`;
  const created = Math.floor(Date.now() / 1000);
  let started = false;
  let calls = 0;
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
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
        out += sseLine(chunk({ role: 'assistant', content: '' }));
      }
      const candidate = body.candidates?.[0];
      for (const part of candidate?.content?.parts ?? []) {
        if (part.thoughtSignature) out += sseLine(chunk({ reasoning_signature: part.thoughtSignature }));
        if (part.functionCall) {
          const call = toolCallOf(part, calls);
          state.text += call.function.arguments;
          state.firstTokenMs ??= elapsedMs;
          out += sseLine(chunk({ tool_calls: [{ index: calls++, ...call }] }));
          continue;
        }
        if (!part.text) continue;
        state.text += part.text;
        state.firstTokenMs ??= elapsedMs;
        out += sseLine(chunk(part.thought ? { reasoning_content: part.text } : { content: part.text }));
      }
      if (body.usageMetadata) state.usage = geminiUsage(body.usageMetadata);
      if (candidate?.finishReason) {
        state.finishReason = geminiFinish(candidate.finishReason, calls > 0);
        out += sseLine(chunk({}, state.finishReason));
      }
      return out;
    },
    end(state) {
      const usage = state.usage && forwardUsage ? sseLine({ ...chunk({}), choices: [], usage: state.usage }) : '';
      return usage + SSE_DONE;
    },
  };
}
