import { clampGeminiBudget } from '../../model-suffix.js';
import type { ChatContentPart, ChatMessage, ChatRequest, ChatToolChoice } from '../../types.js';
import { ConversionError } from '../openai-chat/conversion-error.js';
import { imageUrlOf, messageText } from '../openai-chat/text-content.js';
import type { GeminiContent, GeminiPart, GeminiRequest } from './wire.js';

// The hub format (OpenAI chat) → Gemini generateContent.

function mediaPart(url: string): GeminiPart {
  const inline = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return inline ? { inlineData: { mimeType: inline[1]!, data: inline[2]! } } : { fileData: { fileUri: url } };
}

function contentPart(part: ChatContentPart): GeminiPart | null {
  if (part.type === 'text' || part.type === 'input_text') return part.text ? { text: part.text } : null;
  if (part.type === 'image_url') {
    const url = imageUrlOf(part as { image_url?: { url: string } | string });
    return url ? mediaPart(url) : null;
  }
  if (part.type === 'file' && part.file?.file_data) return mediaPart(part.file.file_data);
  if (part.type === 'input_audio') {
    const audio = part.input_audio as { data?: string; format?: string } | undefined;
    return { inlineData: { mimeType: `audio/${audio?.format ?? 'wav'}`, data: audio?.data ?? '' } };
  }
  throw new ConversionError(`a "${part.type}" content part`);
}

function partsOf(message: ChatMessage): GeminiPart[] {
  if (!Array.isArray(message.content)) {
    const text = messageText(message);
    return text ? [{ text }] : [];
  }
  return message.content.map(contentPart).filter((part): part is GeminiPart => part !== null);
}

function parseArgs(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text || '{}') as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
  } catch {
    return { _raw_arguments: text };
  }
}

function modelParts(message: ChatMessage): GeminiPart[] {
  const parts: GeminiPart[] = [];
  const signature = message.reasoning_signature;
  if (message.reasoning_content) parts.push({ text: message.reasoning_content, thought: true });
  parts.push(...partsOf(message));
  (message.tool_calls ?? []).forEach((call, index) => {
    const part: GeminiPart = { functionCall: { name: call.function.name, args: parseArgs(call.function.arguments) } };
    // Gemini checks its signature on the first function call of the turn (required by its thinking models).
    if (index === 0 && signature) part.thoughtSignature = signature;
    parts.push(part);
  });
  if (signature && !message.tool_calls?.length && parts.length) parts.at(-1)!.thoughtSignature = signature;
  return parts;
}

/** A tool result as Gemini's functionResponse: JSON objects as they are, anything else under `content`. */
function functionResponse(message: ChatMessage, names: Map<string, string>): GeminiPart {
  const text = messageText(message);
  let response: Record<string, unknown>;
  try {
    const parsed = JSON.parse(text) as unknown;
    response =
      parsed && typeof parsed === 'object' && !Array.isArray(parsed)
        ? (parsed as Record<string, unknown>)
        : { content: parsed };
  } catch {
    response = { content: text };
  }
  const name = names.get(message.tool_call_id ?? '') ?? message.name ?? 'function';
  return { functionResponse: { name, response } };
}

function toolConfig(choice: ChatToolChoice | undefined) {
  if (choice === undefined || choice === 'auto') return undefined;
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.function.name] } };
}

/** OpenAI reasoning effort → a Gemini thinking budget (tokens). */
const BUDGETS: Record<string, number> = { minimal: 0, low: 1024, medium: 8192, high: 24_576 };

type ThinkingConfig = NonNullable<NonNullable<GeminiRequest['generationConfig']>['thinkingConfig']>;

/**
 * The hub's thinking (a Claude client's `thinking`, or what a `-thinking` / `-nothinking` model name asks) as
 * Gemini's thinkingConfig, the budget within what the model accepts; else the reasoning effort's budget.
 */
export function geminiThinkingConfig(request: ChatRequest, model: string): ThinkingConfig | undefined {
  const thinking = request.thinking as { type?: string; budget_tokens?: number } | undefined;
  if (thinking?.type === 'disabled') return { thinkingBudget: 0 };
  if (thinking?.type === 'enabled') {
    return typeof thinking.budget_tokens === 'number'
      ? { thinkingBudget: clampGeminiBudget(model, thinking.budget_tokens), includeThoughts: true }
      : { includeThoughts: true };
  }
  const effort = request.reasoning_effort;
  return effort && BUDGETS[effort] !== undefined
    ? { thinkingBudget: BUDGETS[effort], includeThoughts: true }
    : undefined;
}

/** OpenAI chat → Gemini generateContent: assistant turns are `model`, tool results are function responses. */
export function toGeminiRequest(request: ChatRequest): Record<string, unknown> {
  const system = request.messages
    .filter((m) => m.role === 'system' || m.role === 'developer')
    .map(messageText)
    .filter(Boolean)
    .join('\n');
  const names = new Map<string, string>();
  const contents: GeminiContent[] = [];
  for (const message of request.messages) {
    if (message.role === 'system' || message.role === 'developer') continue;
    for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
    const role = message.role === 'assistant' ? 'model' : 'user';
    const parts =
      message.role === 'assistant'
        ? modelParts(message)
        : message.role === 'tool'
          ? [functionResponse(message, names)]
          : partsOf(message);
    if (parts.length === 0) continue;
    const last = contents.at(-1);
    // Consecutive tool results answer one model turn together, as Gemini expects.
    if (last && last.role === role && (message.role === 'tool' || message.role === 'user')) last.parts!.push(...parts);
    else contents.push({ role, parts });
  }
  const config: NonNullable<GeminiRequest['generationConfig']> = {};
  const maxTokens = request.max_tokens ?? request.max_completion_tokens;
  if (maxTokens !== undefined) config.maxOutputTokens = maxTokens;
  if (request.temperature !== undefined) config.temperature = request.temperature;
  if (request.top_p !== undefined) config.topP = request.top_p;
  if (typeof request.top_k === 'number') config.topK = request.top_k;
  if (typeof request.n === 'number') config.candidateCount = request.n;
  if (typeof request.seed === 'number') config.seed = request.seed;
  if (typeof request.presence_penalty === 'number') config.presencePenalty = request.presence_penalty;
  if (typeof request.frequency_penalty === 'number') config.frequencyPenalty = request.frequency_penalty;
  if (request.stop !== undefined) config.stopSequences = Array.isArray(request.stop) ? request.stop : [request.stop];
  const format = request.response_format;
  if (format?.type === 'json_object') config.responseMimeType = 'application/json';
  if (format?.type === 'json_schema') {
    config.responseMimeType = 'application/json';
    if (format.json_schema?.schema) config.responseJsonSchema = format.json_schema.schema;
  }
  const thinking = geminiThinkingConfig(request, request.model);
  if (thinking) config.thinkingConfig = thinking;
  const body: GeminiRequest = { contents };
  if (system) body.systemInstruction = { parts: [{ text: system }] };
  if (request.tools?.length) {
    body.tools = [
      {
        functionDeclarations: request.tools.map((tool) => ({
          name: tool.function.name,
          ...(tool.function.description ? { description: tool.function.description } : {}),
          ...(tool.function.parameters ? { parametersJsonSchema: tool.function.parameters } : {}),
        })),
      },
    ];
    const config = toolConfig(request.tool_choice);
    if (config) body.toolConfig = config;
  }
  if (Object.keys(config).length) body.generationConfig = config;
  return body as Record<string, unknown>;
}
