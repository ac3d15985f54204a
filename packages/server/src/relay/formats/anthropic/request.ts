import type { ChatContentPart, ChatMessage, ChatRequest, ChatToolChoice } from '../../types.js';
import { alternatingTurns } from '../openai-chat/alternating-turns.js';
import { ConversionError } from '../openai-chat/conversion-error.js';
import { imageUrlOf, messageText } from '../openai-chat/text-content.js';
import type { ClaudeBlock, ClaudeMessage, ClaudeRequest, ClaudeSource, ClaudeToolChoice } from './wire.js';

export const ANTHROPIC_VERSION = '2023-06-01';

// The hub format (OpenAI chat, what chat clients and the other client formats become) → Anthropic Messages.

function sourceOf(url: string): ClaudeSource {
  const inline = /^data:([^;,]+)(;base64)?,(.*)$/s.exec(url);
  if (!inline) return { type: 'url', url };
  const data = inline[2] ? inline[3]! : Buffer.from(decodeURIComponent(inline[3]!)).toString('base64');
  return { type: 'base64', media_type: inline[1]!, data };
}

function partBlock(part: ChatContentPart): ClaudeBlock | null {
  if (part.type === 'text' || part.type === 'input_text') {
    return typeof part.text === 'string' && part.text !== '' ? { type: 'text', text: part.text } : null;
  }
  if (part.type === 'image_url') {
    const url = imageUrlOf(part as { image_url?: { url: string } | string });
    return url ? { type: 'image', source: sourceOf(url) } : null;
  }
  if (part.type === 'file') {
    if (!part.file?.file_data) throw new ConversionError('a file given by id');
    return { type: 'document', source: sourceOf(part.file.file_data) };
  }
  if (part.type === 'input_audio') throw new ConversionError('audio input');
  throw new ConversionError(`a "${part.type}" content part`);
}

function contentBlocks(message: ChatMessage): ClaudeBlock[] {
  if (!Array.isArray(message.content)) {
    const text = messageText(message);
    return text ? [{ type: 'text', text }] : [];
  }
  return message.content.map(partBlock).filter((block): block is ClaudeBlock => block !== null);
}

function assistantBlocks(message: ChatMessage): ClaudeBlock[] {
  const blocks: ClaudeBlock[] = [];
  // Claude accepts earlier thinking only with the signature it issued; unsigned reasoning (from another
  // provider) cannot be replayed and is left out, as a new Claude conversation would not have it either.
  if (message.reasoning_content && message.reasoning_signature) {
    blocks.push({ type: 'thinking', thinking: message.reasoning_content, signature: message.reasoning_signature });
  }
  blocks.push(...contentBlocks(message));
  for (const call of message.tool_calls ?? []) {
    let input: unknown = {};
    try {
      input = JSON.parse(call.function.arguments || '{}');
    } catch {
      input = { _raw_arguments: call.function.arguments };
    }
    blocks.push({ type: 'tool_use', id: call.id, name: call.function.name, input });
  }
  return blocks;
}

function toolResult(message: ChatMessage): ClaudeBlock {
  const content = contentBlocks(message);
  return {
    type: 'tool_result',
    tool_use_id: message.tool_call_id ?? '',
    content: content.length ? content : [{ type: 'text', text: '' }],
  };
}

function toolChoice(choice: ChatToolChoice | undefined, parallel: boolean | undefined): ClaudeToolChoice | undefined {
  const noParallel = parallel === false ? { disable_parallel_tool_use: true } : {};
  if (choice === undefined) return parallel === false ? { type: 'auto', ...noParallel } : undefined;
  if (choice === 'none') return { type: 'none' };
  if (choice === 'required') return { type: 'any', ...noParallel };
  if (choice === 'auto') return { type: 'auto', ...noParallel };
  return { type: 'tool', name: choice.function.name, ...noParallel };
}

/** OpenAI's reasoning effort as a Claude thinking budget (Claude needs a number; it must stay below max_tokens). */
const BUDGETS: Record<string, number> = { minimal: 1024, low: 2048, medium: 8192, high: 24_576 };

/** A JSON-mode request: Claude has no response_format, so the instruction travels in the system prompt. */
function jsonInstruction(request: ChatRequest): string {
  const format = request.response_format;
  if (format?.type === 'json_schema') {
    return `Respond only with a JSON value that matches this JSON schema, without any other text:\n${JSON.stringify(format.json_schema?.schema ?? {})}`;
  }
  return format?.type === 'json_object' ? 'Respond only with a valid JSON object, without any other text.' : '';
}

/**
 * OpenAI chat → Anthropic Messages. System and developer messages become `system`; tool messages become
 * tool_result blocks of a user turn; Claude requires alternating turns that start with the user, so consecutive
 * messages of one role are merged and a leading assistant turn gets a user turn before it.
 */
/** A chat message's blocks: the assistant's text, reasoning and calls, a tool's result, or the user's parts. */
function blocksOf(message: ChatMessage): ClaudeBlock[] {
  if (message.role === 'assistant') return assistantBlocks(message);
  return message.role === 'tool' ? [toolResult(message)] : contentBlocks(message);
}

export function toClaudeRequest(request: ChatRequest, defaultMaxTokens: number): Record<string, unknown> {
  const system = request.messages
    .filter((message) => message.role === 'system' || message.role === 'developer')
    .map(messageText)
    .concat(jsonInstruction(request))
    .filter(Boolean)
    .join('\n');
  const turns: ClaudeMessage[] = alternatingTurns<ClaudeBlock>(request.messages, blocksOf, {
    type: 'text',
    text: '...',
  });
  const maxTokens = request.max_tokens ?? request.max_completion_tokens ?? defaultMaxTokens;
  const body: ClaudeRequest = { model: request.model, messages: turns, max_tokens: maxTokens };
  if (system) body.system = system;
  if (request.stream) body.stream = true;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.top_p !== undefined) body.top_p = request.top_p;
  if (typeof request.top_k === 'number') body.top_k = request.top_k;
  if (request.stop !== undefined) body.stop_sequences = Array.isArray(request.stop) ? request.stop : [request.stop];
  if (typeof request.user === 'string') body.metadata = { user_id: request.user };
  if (request.tools?.length) {
    body.tools = request.tools.map((tool) => ({
      name: tool.function.name,
      ...(tool.function.description ? { description: tool.function.description } : {}),
      input_schema: tool.function.parameters ?? { type: 'object', properties: {} },
    }));
    const choice = toolChoice(request.tool_choice, request.parallel_tool_calls);
    if (choice) body.tool_choice = choice;
  }
  // A Claude client's own thinking settings (carried through the hub) win over a translated effort.
  const thinking = request.thinking as ClaudeRequest['thinking'] | undefined;
  if (thinking) body.thinking = thinking;
  else if (request.reasoning_effort && BUDGETS[request.reasoning_effort]) {
    const budget = Math.min(BUDGETS[request.reasoning_effort]!, Math.max(1024, maxTokens - 1));
    if (maxTokens > 1024) body.thinking = { type: 'enabled', budget_tokens: budget };
  }
  // Claude refuses temperature and top_p other than defaults while thinking.
  if (body.thinking?.type === 'enabled') {
    delete body.temperature;
    delete body.top_p;
    delete body.top_k;
  }
  return body as unknown as Record<string, unknown>;
}
