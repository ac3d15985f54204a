import type {
  ChatContentPart,
  ChatMessage,
  ChatRequest,
  ChatResponse,
  ChatTool,
  ChatToolChoice,
  Usage,
} from '../../types.js';
import { ConversionError } from '../openai-chat/conversion-error.js';
import { noteOmittedTools } from '../openai-chat/omitted-tools.js';
import { callId } from './response.js';
import type { GeminiPart, GeminiRequest } from './wire.js';

export type { GeminiRequest } from './wire.js';

// Gemini generateContent (a Gemini client: Google's SDKs, Gemini CLI) → the hub format (OpenAI chat), so any channel
// with a chat function can serve it, and the hub's answers back in Gemini's shape.

function partText(part: GeminiPart): string {
  if (part.text) return part.text;
  if (part.functionCall) return `${part.functionCall.name} ${JSON.stringify(part.functionCall.args ?? {})}`;
  if (part.functionResponse) return JSON.stringify(part.functionResponse.response ?? {});
  return '';
}

/** What the model reads as text (system, turns, calls and results, tool declarations), for estimates and counting. */
export function geminiPromptText(request: GeminiRequest): string {
  const texts = (parts: GeminiPart[] | undefined) => (parts ?? []).map(partText).filter(Boolean).join('\n');
  const tools = (request.tools ?? []).flatMap((tool) =>
    (tool.functionDeclarations ?? []).map(
      (fn) => `${fn.name} ${fn.description ?? ''} ${JSON.stringify(fn.parameters ?? fn.parametersJsonSchema ?? {})}`,
    ),
  );
  return [texts(request.systemInstruction?.parts), ...(request.contents ?? []).map((c) => texts(c.parts)), ...tools]
    .filter(Boolean)
    .join('\n');
}

function mediaPart(part: GeminiPart): ChatContentPart | null {
  if (part.inlineData?.data) {
    const mime = part.inlineData.mimeType ?? 'application/octet-stream';
    const url = `data:${mime};base64,${part.inlineData.data}`;
    return mime.startsWith('image/')
      ? { type: 'image_url', image_url: { url } }
      : { type: 'file', file: { file_data: url } };
  }
  if (part.fileData?.fileUri) return { type: 'image_url', image_url: { url: part.fileData.fileUri } };
  return null;
}

function userContent(parts: GeminiPart[]): ChatMessage['content'] {
  const converted: ChatContentPart[] = [];
  for (const part of parts) {
    if (part.text !== undefined) converted.push({ type: 'text', text: part.text });
    else {
      const media = mediaPart(part);
      if (!media) throw new ConversionError(`a Gemini part with ${Object.keys(part).join(', ')}`);
      converted.push(media);
    }
  }
  return converted.every((part) => part.type === 'text') ? converted.map((part) => part.text).join('') : converted;
}

/** Ids for Gemini's id-less function calls, so the results that follow can name the call they answer. */
class CallIds {
  private pending: Array<{ id: string; name: string }> = [];
  private count = 0;

  issue(part: GeminiPart): string {
    const id = callId(part, this.count++);
    this.pending.push({ id, name: part.functionCall!.name });
    return id;
  }

  answer(part: GeminiPart): string {
    const response = part.functionResponse!;
    const index = this.pending.findIndex((call) =>
      response.id ? call.id === response.id : call.name === response.name,
    );
    if (index === -1) return response.id ?? `call_${response.name}_${this.count++}`;
    return this.pending.splice(index, 1)[0]!.id;
  }
}

function tools(request: GeminiRequest, omitted: string[]): ChatTool[] | undefined {
  const declared: ChatTool[] = [];
  for (const tool of request.tools ?? []) {
    for (const name of Object.keys(tool)) {
      // Google Search, code execution and URL context run on Google's side: another provider cannot run them.
      if (name !== 'functionDeclarations') omitted.push(name);
    }
    for (const fn of tool.functionDeclarations ?? []) {
      declared.push({
        type: 'function',
        function: {
          name: fn.name,
          ...(fn.description ? { description: fn.description } : {}),
          parameters: lowerCaseTypes(fn.parametersJsonSchema ?? fn.parameters ?? { type: 'object', properties: {} }),
        },
      });
    }
  }
  return declared.length ? declared : undefined;
}

/** Gemini's OpenAPI-style schemas may spell types in capitals (`OBJECT`, `STRING`); JSON Schema wants lower case. */
function lowerCaseTypes(schema: unknown): Record<string, unknown> {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!value || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value))
      out[key] = key === 'type' && typeof inner === 'string' ? inner.toLowerCase() : walk(inner);
    return out;
  };
  return walk(schema) as Record<string, unknown>;
}

function toolChoice(request: GeminiRequest): ChatToolChoice | undefined {
  const config = request.toolConfig?.functionCallingConfig;
  if (!config?.mode) return undefined;
  const mode = config.mode.toUpperCase();
  if (mode === 'NONE') return 'none';
  if (mode === 'ANY' || mode === 'VALIDATED') {
    const allowed = config.allowedFunctionNames ?? [];
    return allowed.length === 1 ? { type: 'function', function: { name: allowed[0]! } } : 'required';
  }
  return 'auto';
}

/** A thinking budget as an OpenAI reasoning effort; 0 turns thinking off. */
function effort(budget: number | undefined): ChatRequest['reasoning_effort'] | undefined {
  if (budget === undefined || budget < 0) return undefined;
  if (budget === 0) return 'minimal';
  if (budget <= 4096) return 'low';
  return budget <= 16_384 ? 'medium' : 'high';
}

/** Gemini generateContent → OpenAI chat, for Gemini clients served by OpenAI-format (or any other) channels. */
export function geminiToOpenAiRequest(request: GeminiRequest, model: string, stream: boolean): ChatRequest {
  const messages: ChatMessage[] = [];
  const system = (request.systemInstruction?.parts ?? []).map((part) => part.text ?? '').join('\n');
  if (system) messages.push({ role: 'system', content: system });
  const ids = new CallIds();
  for (const content of request.contents ?? []) {
    const parts = content.parts ?? [];
    if (content.role === 'model') {
      const message: ChatMessage = { role: 'assistant', content: null };
      let text = '';
      for (const part of parts) {
        if (part.thoughtSignature) message.reasoning_signature ??= part.thoughtSignature;
        if (part.functionCall) {
          message.tool_calls ??= [];
          message.tool_calls.push({
            id: ids.issue(part),
            type: 'function',
            function: { name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args ?? {}) },
          });
        } else if (part.thought) message.reasoning_content = (message.reasoning_content ?? '') + (part.text ?? '');
        else if (part.text !== undefined) text += part.text;
        else throw new ConversionError(`a Gemini part with ${Object.keys(part).join(', ')}`);
      }
      if (text) message.content = text;
      messages.push(message);
      continue;
    }
    const responses = parts.filter((part) => part.functionResponse);
    for (const part of responses) {
      messages.push({
        role: 'tool',
        tool_call_id: ids.answer(part),
        content: JSON.stringify(part.functionResponse!.response ?? {}),
      });
    }
    const rest = parts.filter((part) => !part.functionResponse);
    if (rest.length) messages.push({ role: 'user', content: userContent(rest) });
  }
  const config = request.generationConfig ?? {};
  const chat: ChatRequest = { model, messages };
  if (config.temperature !== undefined) chat.temperature = config.temperature;
  if (config.topP !== undefined) chat.top_p = config.topP;
  if (config.topK !== undefined) chat.top_k = config.topK;
  if (config.maxOutputTokens !== undefined) chat.max_tokens = config.maxOutputTokens;
  if (config.stopSequences?.length) chat.stop = config.stopSequences;
  if (config.candidateCount !== undefined) chat.n = config.candidateCount;
  if (config.seed !== undefined) chat.seed = config.seed;
  if (config.presencePenalty !== undefined) chat.presence_penalty = config.presencePenalty;
  if (config.frequencyPenalty !== undefined) chat.frequency_penalty = config.frequencyPenalty;
  if (config.responseMimeType === 'application/json') {
    const schema = config.responseJsonSchema ?? config.responseSchema;
    chat.response_format = schema
      ? { type: 'json_schema', json_schema: { name: 'response', schema: lowerCaseTypes(schema) } }
      : { type: 'json_object' };
  }
  const reasoning = effort(config.thinkingConfig?.thinkingBudget);
  if (reasoning) chat.reasoning_effort = reasoning;
  const omitted: string[] = [];
  const declared = tools(request, omitted);
  noteOmittedTools(chat, omitted);
  if (declared) {
    chat.tools = declared;
    const choice = toolChoice(request);
    if (choice) chat.tool_choice = choice;
  }
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
  const reasoning = usage?.completion_tokens_details?.reasoning_tokens ?? 0;
  const cached = usage?.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    promptTokenCount: usage?.prompt_tokens ?? 0,
    candidatesTokenCount: Math.max(0, (usage?.completion_tokens ?? 0) - reasoning),
    totalTokenCount: usage?.total_tokens ?? (usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0),
    ...(reasoning ? { thoughtsTokenCount: reasoning } : {}),
    ...(cached ? { cachedContentTokenCount: cached } : {}),
  };
}

function argsOf(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text || '{}') as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
  } catch {
    return { _raw_arguments: text };
  }
}

/** The parts of one answer message: thoughts, text, function calls (the signature on the first call or thought). */
export function geminiPartsOf(message: ChatMessage): GeminiPart[] {
  const parts: GeminiPart[] = [];
  if (message.reasoning_content) parts.push({ text: message.reasoning_content, thought: true });
  if (typeof message.content === 'string' && message.content) parts.push({ text: message.content });
  for (const call of message.tool_calls ?? []) {
    parts.push({ functionCall: { id: call.id, name: call.function.name, args: argsOf(call.function.arguments) } });
  }
  if (message.reasoning_signature) {
    const carrier = parts.find((part) => part.functionCall) ?? parts[0];
    if (carrier) carrier.thoughtSignature = message.reasoning_signature;
  }
  if (parts.length === 0) parts.push({ text: '' });
  return parts;
}

/** An OpenAI chat answer in Gemini's generateContent shape. */
export function openAiToGeminiResponse(response: ChatResponse, model: string): Record<string, unknown> {
  return {
    candidates: response.choices.map((choice) => ({
      index: choice.index,
      content: { role: 'model', parts: geminiPartsOf(choice.message) },
      finishReason: geminiFinishReason(choice.finish_reason) ?? 'STOP',
    })),
    usageMetadata: geminiUsageMetadata(response.usage),
    modelVersion: model,
  };
}
