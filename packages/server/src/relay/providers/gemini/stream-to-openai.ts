import { type ChunkConverter, SSE_DONE, type StreamState, sseLine } from '../../stream/stream-state.js';
import { geminiUsage } from './response.js';

interface GeminiChunk {
  candidates?: Array<{ content?: { parts?: Array<{ text?: string; thought?: boolean }> }; finishReason?: string }>;
  usageMetadata?: Parameters<typeof geminiUsage>[0];
}

const FINISH: Record<string, string> = { STOP: 'stop', MAX_TOKENS: 'length', SAFETY: 'content_filter' };

/** Gemini streamGenerateContent (alt=sse) → OpenAI chat chunks; the last chunk's usageMetadata is the usage. */
export function geminiToOpenAi(model: string, forwardUsage: boolean): ChunkConverter {
  const id = `chatcmpl-${Date.now()}`;
  const created = Math.floor(Date.now() / 1000);
  let started = false;
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  return {
    push(event, state: StreamState, elapsedMs) {
      let body: GeminiChunk;
      try {
        body = JSON.parse(event.data) as GeminiChunk;
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
        if (!part.text) continue;
        state.text += part.text;
        state.firstTokenMs ??= elapsedMs;
        out += sseLine(chunk(part.thought ? { reasoning_content: part.text } : { content: part.text }));
      }
      if (body.usageMetadata) state.usage = geminiUsage(body.usageMetadata);
      if (candidate?.finishReason) {
        state.finishReason = FINISH[candidate.finishReason] ?? 'stop';
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
