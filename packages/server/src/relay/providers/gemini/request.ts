import type { ChatMessage, ChatRequest } from '../../types.js';
import { imageUrlOf, messageText } from '../text-content.js';

type GeminiPart =
  | { text: string }
  | { inlineData: { mimeType: string; data: string } }
  | { fileData: { fileUri: string } };

function partsOf(message: ChatMessage): GeminiPart[] {
  if (!Array.isArray(message.content)) return [{ text: messageText(message) }];
  const parts: GeminiPart[] = [];
  for (const part of message.content) {
    if (part.type === 'text' && typeof part.text === 'string') parts.push({ text: part.text });
    if (part.type === 'image_url') {
      const url = imageUrlOf(part as { image_url?: { url: string } | string });
      if (!url) continue;
      const inline = /^data:([^;]+);base64,(.*)$/s.exec(url);
      parts.push(inline ? { inlineData: { mimeType: inline[1]!, data: inline[2]! } } : { fileData: { fileUri: url } });
    }
  }
  return parts;
}

/** OpenAI chat → Gemini generateContent: assistant turns are `model`, system text is `systemInstruction`. */
export function toGeminiRequest(request: ChatRequest): Record<string, unknown> {
  const system = request.messages
    .filter((m) => m.role === 'system' || m.role === 'developer')
    .map(messageText)
    .join('\n');
  const contents = request.messages
    .filter((m) => m.role !== 'system' && m.role !== 'developer')
    .map((m) => ({ role: m.role === 'assistant' ? 'model' : 'user', parts: partsOf(m) }));
  const generationConfig: Record<string, unknown> = {};
  const maxTokens = request.max_tokens ?? request.max_completion_tokens;
  if (maxTokens !== undefined) generationConfig.maxOutputTokens = maxTokens;
  if (request.temperature !== undefined) generationConfig.temperature = request.temperature;
  if (request.top_p !== undefined) generationConfig.topP = request.top_p;
  if (request.stop !== undefined)
    generationConfig.stopSequences = Array.isArray(request.stop) ? request.stop : [request.stop];
  const body: Record<string, unknown> = { contents };
  if (system) body.systemInstruction = { parts: [{ text: system }] };
  if (Object.keys(generationConfig).length) body.generationConfig = generationConfig;
  return body;
}
