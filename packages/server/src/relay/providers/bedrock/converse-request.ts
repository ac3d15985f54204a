import { toClaudeRequest } from '../../formats/anthropic/request.js';
import { alternatingTurns } from '../../formats/openai-chat/alternating-turns.js';
import { ConversionError } from '../../formats/openai-chat/conversion-error.js';
import { imageUrlOf, messageText } from '../../formats/openai-chat/text-content.js';
import type { ChatContentPart, ChatMessage, ChatRequest, ChatToolChoice } from '../../types.js';
import type { ConverseBlock, ConverseImage, ConverseMessage, ConverseRequest } from './converse-wire.js';
import { isClaudeModel } from './model-ids.js';

// The hub format (OpenAI chat) → Bedrock Converse, which every model family on Bedrock answers.

const IMAGE_FORMATS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

const DOCUMENT_FORMATS: Record<string, string> = {
  'application/pdf': 'pdf',
  'text/csv': 'csv',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'text/html': 'html',
  'text/plain': 'txt',
  'text/markdown': 'md',
};

/** Converse takes files as bytes only (or from S3): a `data:` URL is split into its type and base64 bytes. */
function inlineData(url: string, what: string): { mime: string; base64: string } {
  const inline = /^data:([^;,]+)(;base64)?,(.*)$/s.exec(url);
  if (!inline) throw new ConversionError(`${what} by URL (Bedrock takes inline data only)`);
  const base64 = inline[2] ? inline[3]! : Buffer.from(decodeURIComponent(inline[3]!)).toString('base64');
  return { mime: inline[1]!.toLowerCase(), base64 };
}

function image(url: string): ConverseImage {
  const { mime, base64 } = inlineData(url, 'an image');
  const format = IMAGE_FORMATS[mime];
  if (!format) throw new ConversionError(`an image of type ${mime}`);
  return { format, source: { bytes: base64 } };
}

/** Bedrock allows letters, digits, spaces, hyphens, parentheses and brackets in a document's name. */
const documentName = (name: string | undefined, index: number) =>
  (name ?? '')
    .replace(/\.[^.]*$/, '')
    .replace(/[^A-Za-z0-9\s\-()[\]]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim() || `document ${index + 1}`;

function partBlock(part: ChatContentPart, index: number): ConverseBlock | null {
  if (part.type === 'text' || part.type === 'input_text') {
    return typeof part.text === 'string' && part.text !== '' ? { text: part.text } : null;
  }
  if (part.type === 'image_url') {
    const url = imageUrlOf(part as { image_url?: { url: string } | string });
    return url ? { image: image(url) } : null;
  }
  if (part.type === 'file') {
    if (!part.file?.file_data) throw new ConversionError('a file given by id');
    const { mime, base64 } = inlineData(part.file.file_data, 'a file');
    const format = DOCUMENT_FORMATS[mime];
    if (!format) throw new ConversionError(`a file of type ${mime}`);
    return { document: { format, name: documentName(part.file.filename, index), source: { bytes: base64 } } };
  }
  if (part.type === 'input_audio') throw new ConversionError('audio input');
  throw new ConversionError(`a "${part.type}" content part`);
}

function contentBlocks(message: ChatMessage): ConverseBlock[] {
  if (!Array.isArray(message.content)) {
    const text = messageText(message);
    return text ? [{ text }] : [];
  }
  return message.content.map(partBlock).filter((block): block is ConverseBlock => block !== null);
}

function assistantBlocks(message: ChatMessage): ConverseBlock[] {
  const blocks: ConverseBlock[] = [];
  // Claude takes earlier reasoning back only with the signature it issued; unsigned reasoning is left out.
  if (message.reasoning_content && message.reasoning_signature) {
    blocks.push({
      reasoningContent: {
        reasoningText: { text: message.reasoning_content, signature: message.reasoning_signature },
      },
    });
  }
  blocks.push(...contentBlocks(message));
  for (const call of message.tool_calls ?? []) {
    let input: unknown = {};
    try {
      input = JSON.parse(call.function.arguments || '{}');
    } catch {
      input = { _raw_arguments: call.function.arguments };
    }
    blocks.push({ toolUse: { toolUseId: call.id, name: call.function.name, input } });
  }
  return blocks;
}

function toolResult(message: ChatMessage): ConverseBlock {
  const content = contentBlocks(message).flatMap((block) =>
    'text' in block || 'image' in block ? [block as { text: string } | { image: ConverseImage }] : [],
  );
  return { toolResult: { toolUseId: message.tool_call_id ?? '', content: content.length ? content : [{ text: '' }] } };
}

function toolChoice(choice: ChatToolChoice | undefined): NonNullable<ConverseRequest['toolConfig']>['toolChoice'] {
  if (choice === 'required') return { any: {} };
  if (choice === 'auto') return { auto: {} };
  if (typeof choice === 'object') return { tool: { name: choice.function.name } };
  // `none` has no Converse form (and tools must stay declared while the conversation holds tool calls).
  return undefined;
}

/**
 * Claude's settings that Converse has no field for (thinking, top_k) go in `additionalModelRequestFields`; Claude's
 * own converter decides them (thinking from the hub's `thinking` or a reasoning effort, the default max tokens).
 */
function claudeExtras(request: ChatRequest, defaultMaxTokens: number) {
  const claude = toClaudeRequest({ ...request, messages: [], tools: undefined }, defaultMaxTokens) as {
    max_tokens: number;
    thinking?: unknown;
    top_k?: number;
  };
  const fields: Record<string, unknown> = {};
  if (claude.thinking) fields.thinking = claude.thinking;
  if (claude.top_k !== undefined) fields.top_k = claude.top_k;
  return { maxTokens: claude.max_tokens, fields, thinking: claude.thinking !== undefined };
}

/** A chat message's blocks: the assistant's text, reasoning and calls, a tool's result, or the user's parts. */
function blocksOf(message: ChatMessage): ConverseBlock[] {
  if (message.role === 'assistant') return assistantBlocks(message);
  return message.role === 'tool' ? [toolResult(message)] : contentBlocks(message);
}

/**
 * OpenAI chat → Converse. System and developer messages become `system`; tool messages become toolResult blocks of
 * a user turn; Converse requires alternating turns that start with the user, so consecutive messages of one role are
 * merged and a leading assistant turn gets a user turn before it. `modelId` is the Bedrock id the call names.
 */
export function toConverseRequest(request: ChatRequest, modelId: string, defaultMaxTokens: number): ConverseRequest {
  const system = request.messages
    .filter((message) => message.role === 'system' || message.role === 'developer')
    .map((message) => messageText(message))
    .filter(Boolean)
    .map((text) => ({ text }));
  const messages: ConverseMessage[] = alternatingTurns(request.messages, blocksOf, { text: '...' });
  const body: ConverseRequest = { messages };
  if (system.length) body.system = system;
  const claude = isClaudeModel(modelId) ? claudeExtras(request, defaultMaxTokens) : null;
  const inference: NonNullable<ConverseRequest['inferenceConfig']> = {};
  const maxTokens = request.max_tokens ?? request.max_completion_tokens ?? claude?.maxTokens;
  if (maxTokens !== undefined) inference.maxTokens = maxTokens;
  // Claude takes only the default sampling while it thinks.
  if (!claude?.thinking) {
    if (request.temperature !== undefined) inference.temperature = request.temperature;
    if (request.top_p !== undefined) inference.topP = request.top_p;
  }
  if (request.stop !== undefined) inference.stopSequences = Array.isArray(request.stop) ? request.stop : [request.stop];
  if (Object.keys(inference).length) body.inferenceConfig = inference;
  if (request.tools?.length) {
    const choice = toolChoice(request.tool_choice);
    body.toolConfig = {
      tools: request.tools.map((tool) => ({
        toolSpec: {
          name: tool.function.name,
          ...(tool.function.description ? { description: tool.function.description } : {}),
          inputSchema: { json: tool.function.parameters ?? { type: 'object', properties: {} } },
        },
      })),
      ...(choice ? { toolChoice: choice } : {}),
    };
  }
  if (claude && Object.keys(claude.fields).length) body.additionalModelRequestFields = claude.fields;
  return body;
}
