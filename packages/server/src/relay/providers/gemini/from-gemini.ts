import type { ChatMessage, ChatRequest, ChatResponse, Usage } from '../../types.js';

/** The parts of a Gemini generateContent request the gateway reads or converts. */
export interface GeminiRequest {
  contents?: Array<{ role?: string; parts?: GeminiPart[] }>;
  systemInstruction?: { parts?: GeminiPart[] };
  generationConfig?: {
    temperature?: number;
    topP?: number;
    maxOutputTokens?: number;
    stopSequences?: string[];
    candidateCount?: number;
  };
  [key: string]: unknown;
}

interface GeminiPart {
  text?: string;
  thought?: boolean;
  inlineData?: { mimeType?: string; data?: string };
  fileData?: { fileUri?: string };
}

export function geminiPromptText(request: GeminiRequest): string {
  const texts = (parts: GeminiPart[] | undefined) => (parts ?? []).map((part) => part.text ?? '').join('\n');
  return [texts(request.systemInstruction?.parts), ...(request.contents ?? []).map((c) => texts(c.parts))]
    .filter(Boolean)
    .join('\n');
}

function toOpenAiContent(parts: GeminiPart[]): ChatMessage['content'] {
  const hasMedia = parts.some((part) => part.inlineData || part.fileData);
  if (!hasMedia) return parts.map((part) => part.text ?? '').join('');
  return parts.flatMap((part): Exclude<ChatMessage['content'], string | null> => {
    if (part.text !== undefined) return [{ type: 'text', text: part.text }];
    if (part.inlineData?.data) {
      return [
        { type: 'image_url', image_url: { url: `data:${part.inlineData.mimeType};base64,${part.inlineData.data}` } },
      ];
    }
    if (part.fileData?.fileUri) return [{ type: 'image_url', image_url: { url: part.fileData.fileUri } }];
    return [];
  });
}

/** Gemini generateContent → OpenAI chat, for Gemini clients served by OpenAI-format (or any other) channels. */
export function geminiToOpenAiRequest(request: GeminiRequest, model: string, stream: boolean): ChatRequest {
  const messages: ChatMessage[] = [];
  const system = (request.systemInstruction?.parts ?? []).map((part) => part.text ?? '').join('\n');
  if (system) messages.push({ role: 'system', content: system });
  for (const content of request.contents ?? []) {
    messages.push({
      role: content.role === 'model' ? 'assistant' : 'user',
      content: toOpenAiContent(content.parts ?? []),
    });
  }
  const config = request.generationConfig ?? {};
  const chat: ChatRequest = { model, messages };
  if (config.temperature !== undefined) chat.temperature = config.temperature;
  if (config.topP !== undefined) chat.top_p = config.topP;
  if (config.maxOutputTokens !== undefined) chat.max_tokens = config.maxOutputTokens;
  if (config.stopSequences?.length) chat.stop = config.stopSequences;
  if (config.candidateCount !== undefined) chat.n = config.candidateCount;
  if (stream) {
    chat.stream = true;
    chat.stream_options = { include_usage: true };
  }
  return chat;
}

const FINISH_REASONS: Record<string, string> = {
  stop: 'STOP',
  length: 'MAX_TOKENS',
  content_filter: 'SAFETY',
  tool_calls: 'STOP',
};

export const geminiFinishReason = (reason: string | null | undefined) =>
  reason ? (FINISH_REASONS[reason] ?? 'STOP') : undefined;

export function geminiUsageMetadata(usage: Usage | null | undefined) {
  return {
    promptTokenCount: usage?.prompt_tokens ?? 0,
    candidatesTokenCount: usage?.completion_tokens ?? 0,
    totalTokenCount: usage?.total_tokens ?? (usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0),
  };
}

/** An OpenAI chat answer in Gemini's generateContent shape (thinking as `thought` parts). */
export function openAiToGeminiResponse(response: ChatResponse, model: string): Record<string, unknown> {
  return {
    candidates: response.choices.map((choice) => {
      const parts: GeminiPart[] = [];
      const reasoning = choice.message.reasoning_content;
      if (typeof reasoning === 'string' && reasoning) parts.push({ text: reasoning, thought: true });
      if (typeof choice.message.content === 'string') parts.push({ text: choice.message.content });
      return {
        index: choice.index,
        content: { role: 'model', parts },
        finishReason: geminiFinishReason(choice.finish_reason) ?? 'STOP',
      };
    }),
    usageMetadata: geminiUsageMetadata(response.usage),
    modelVersion: model,
  };
}
