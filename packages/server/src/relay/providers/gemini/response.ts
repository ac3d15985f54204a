import type { ChatResponse, Usage } from '../../types.js';

interface GeminiResponse {
  candidates?: Array<{ content?: { parts?: Array<{ text?: string; thought?: boolean }> }; finishReason?: string }>;
  usageMetadata?: {
    promptTokenCount?: number;
    candidatesTokenCount?: number;
    thoughtsTokenCount?: number;
    cachedContentTokenCount?: number;
  };
  modelVersion?: string;
}

const FINISH: Record<string, string> = {
  STOP: 'stop',
  MAX_TOKENS: 'length',
  SAFETY: 'content_filter',
  RECITATION: 'content_filter',
};

export function geminiUsage(meta: GeminiResponse['usageMetadata']): Usage {
  const prompt = meta?.promptTokenCount ?? 0;
  // Thinking tokens are billed as output.
  const completion = (meta?.candidatesTokenCount ?? 0) + (meta?.thoughtsTokenCount ?? 0);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: meta?.cachedContentTokenCount ?? 0 },
  };
}

export function fromGeminiResponse(body: unknown, model: string): ChatResponse {
  const gemini = body as GeminiResponse;
  const candidate = gemini.candidates?.[0];
  const parts = candidate?.content?.parts ?? [];
  const text = parts
    .filter((part) => !part.thought)
    .map((part) => part.text ?? '')
    .join('');
  const reasoning = parts
    .filter((part) => part.thought)
    .map((part) => part.text ?? '')
    .join('');
  return {
    id: `chatcmpl-${Date.now()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: text, ...(reasoning ? { reasoning_content: reasoning } : {}) },
        finish_reason: candidate?.finishReason ? (FINISH[candidate.finishReason] ?? 'stop') : null,
      },
    ],
    usage: geminiUsage(gemini.usageMetadata),
  };
}
