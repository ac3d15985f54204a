import type { ChatContentPart, ChatMessage, ChatRequest, ChatTool, ChatToolChoice } from '../../types.js';
import { ConversionError } from '../openai-chat/conversion-error.js';
import { noteOmittedTools } from '../openai-chat/omitted-tools.js';
import { blocksOf, type ClaudeBlock, type ClaudeRequest, type ClaudeSource, type ClaudeToolChoice } from './wire.js';

// Anthropic Messages (a Claude client) → the gateway's hub format (OpenAI chat), so any channel with a chat function
// can serve Claude Code and the Anthropic SDKs. Everything with a meaning on the other side is carried: system
// blocks, images, documents, tools and tool choice, tool calls and results, thinking (with its signature).
// Cache-control markers are hints for Anthropic's prompt cache, meaningless elsewhere, and are left behind.

function dataUrl(source: ClaudeSource): string {
  if (source.type === 'url') return source.url;
  if (source.type === 'text')
    return `data:${source.media_type ?? 'text/plain'};base64,${Buffer.from(source.data).toString('base64')}`;
  return `data:${source.media_type};base64,${source.data}`;
}

function userPart(block: ClaudeBlock): ChatContentPart | null {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: String(block.text ?? '') };
    case 'image':
      return { type: 'image_url', image_url: { url: dataUrl(block.source as ClaudeSource) } };
    case 'document': {
      const source = block.source as ClaudeSource;
      if (source.type === 'url') throw new ConversionError('a document given by URL');
      return {
        type: 'file',
        file: { file_data: dataUrl(source), ...(block.title ? { filename: String(block.title) } : {}) },
      };
    }
    default:
      return null;
  }
}

/** A tool result's content as text: what an OpenAI `tool` message can hold. */
function toolResultText(block: Extract<ClaudeBlock, { type: 'tool_result' }>): string {
  const parts = blocksOf(block.content);
  if (parts.some((part) => part.type !== 'text'))
    throw new ConversionError('an image or document inside a tool result');
  const text = parts.map((part) => String((part as { text?: string }).text ?? '')).join('\n');
  // OpenAI tool messages have no error flag; the model still has to learn the call failed.
  return block.is_error ? `Error: ${text}` : text;
}

function userMessages(blocks: ClaudeBlock[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  let parts: ChatContentPart[] = [];
  const flush = () => {
    if (parts.length === 0) return;
    const onlyText = parts.every((part) => part.type === 'text');
    out.push({ role: 'user', content: onlyText ? parts.map((part) => part.text).join('\n') : parts });
    parts = [];
  };
  for (const block of blocks) {
    if (block.type === 'tool_result') {
      // Tool results answer the assistant's calls, so they come before anything else the user says in that turn.
      flush();
      const result = block as Extract<ClaudeBlock, { type: 'tool_result' }>;
      out.push({ role: 'tool', tool_call_id: result.tool_use_id, content: toolResultText(result) });
      continue;
    }
    const part = userPart(block);
    if (!part) throw new ConversionError(`a "${block.type}" block`);
    parts.push(part);
  }
  flush();
  return out;
}

function assistantMessage(blocks: ClaudeBlock[]): ChatMessage {
  const message: ChatMessage = { role: 'assistant', content: null };
  const texts: string[] = [];
  const thinking: string[] = [];
  for (const block of blocks) {
    if (block.type === 'text') texts.push(String(block.text ?? ''));
    else if (block.type === 'thinking') {
      thinking.push(String(block.thinking ?? ''));
      if (typeof block.signature === 'string' && block.signature) message.reasoning_signature = block.signature;
    } else if (block.type === 'redacted_thinking') {
      // Encrypted reasoning only Anthropic can read: another provider cannot use it, and it carries no text.
    } else if (block.type === 'tool_use') {
      const call = block as Extract<ClaudeBlock, { type: 'tool_use' }>;
      message.tool_calls ??= [];
      message.tool_calls.push({
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: JSON.stringify(call.input ?? {}) },
      });
    } else throw new ConversionError(`a "${block.type}" block in an assistant turn`);
  }
  if (texts.length) message.content = texts.join('');
  if (thinking.length) message.reasoning_content = thinking.join('\n');
  return message;
}

function tools(request: ClaudeRequest, omitted: string[]): ChatTool[] | undefined {
  if (!request.tools?.length) return undefined;
  const custom = request.tools.filter((tool) => {
    // Anthropic's own tools (web search, code execution, computer use…) run on Anthropic's side or need its client.
    if (tool.type && tool.type !== 'custom') omitted.push(tool.name || tool.type);
    return !tool.type || tool.type === 'custom';
  });
  if (custom.length === 0) return undefined;
  return custom.map((tool): ChatTool => {
    return {
      type: 'function',
      function: {
        name: tool.name,
        ...(tool.description ? { description: tool.description } : {}),
        parameters: tool.input_schema ?? { type: 'object', properties: {} },
      },
    };
  });
}

function toolChoice(choice: ClaudeToolChoice | undefined): ChatToolChoice | undefined {
  if (!choice) return undefined;
  if (choice.type === 'any') return 'required';
  if (choice.type === 'tool') return { type: 'function', function: { name: choice.name } };
  return choice.type === 'none' ? 'none' : 'auto';
}

/** Claude's thinking budget as an OpenAI reasoning effort (the only knob OpenAI-format reasoning models have). */
export function effortForBudget(budget: number): 'low' | 'medium' | 'high' {
  if (budget <= 4096) return 'low';
  return budget <= 16_384 ? 'medium' : 'high';
}

/** How a Claude request is converted. */
export interface ClaudeConversion {
  /** Leave Claude Code's per-request billing header out of the system prompt (claude.strip_billing_header_enabled). */
  stripBillingHeader?: boolean;
}

const BILLING_HEADER = 'x-anthropic-billing-header:';

/**
 * The system prompt as one text. Claude Code opens it with a block `x-anthropic-billing-header: cc_version=…;
 * cc_entrypoint=…; cch=…;` whose hash changes on every request: meant for Anthropic's billing, it would change the
 * first message of every converted turn, so no other provider's prompt cache could ever hit. It is left out when
 * asked (a block of its own, or the first line of a system string).
 */
function systemText(request: ClaudeRequest, stripBillingHeader: boolean): string {
  if (typeof request.system === 'string') {
    if (!stripBillingHeader || !request.system.startsWith(BILLING_HEADER)) return request.system;
    const lineEnd = request.system.indexOf('\n');
    return lineEnd < 0 ? '' : request.system.slice(lineEnd + 1);
  }
  const blocks = request.system ?? [];
  const kept = stripBillingHeader ? blocks.filter((block) => !block.text?.startsWith(BILLING_HEADER)) : blocks;
  return kept.map((block) => block.text ?? '').join('\n');
}

export function claudeToOpenAiRequest(
  request: ClaudeRequest,
  model: string,
  conversion: ClaudeConversion = {},
): ChatRequest {
  const messages: ChatMessage[] = [];
  const system = systemText(request, conversion.stripBillingHeader === true);
  if (system) messages.push({ role: 'system', content: system });
  for (const message of request.messages) {
    const blocks = blocksOf(message.content);
    if (message.role === 'assistant') messages.push(assistantMessage(blocks));
    else messages.push(...userMessages(blocks));
  }
  const chat: ChatRequest = { model, messages, max_tokens: request.max_tokens, stream: request.stream === true };
  if (request.stream) chat.stream_options = { include_usage: true };
  if (request.temperature !== undefined) chat.temperature = request.temperature;
  if (request.top_p !== undefined) chat.top_p = request.top_p;
  if (request.top_k !== undefined) chat.top_k = request.top_k;
  if (request.stop_sequences?.length) chat.stop = request.stop_sequences;
  if (request.metadata?.user_id) chat.user = request.metadata.user_id;
  const omitted: string[] = [];
  const converted = tools(request, omitted);
  noteOmittedTools(chat, omitted);
  if (converted) chat.tools = converted;
  const choice = toolChoice(request.tool_choice);
  if (choice && converted) chat.tool_choice = choice;
  const disableParallel = (request.tool_choice as { disable_parallel_tool_use?: boolean } | undefined)
    ?.disable_parallel_tool_use;
  if (disableParallel && converted) chat.parallel_tool_calls = false;
  if (request.thinking?.type === 'enabled') {
    chat.reasoning_effort = effortForBudget(request.thinking.budget_tokens);
    // Kept for channels that speak Claude's own thinking (a Claude channel reached through the hub).
    chat.thinking = request.thinking;
  }
  return chat;
}
