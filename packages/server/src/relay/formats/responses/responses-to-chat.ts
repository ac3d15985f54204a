import type { ChatContentPart, ChatMessage, ChatRequest, ChatTool, ChatToolChoice } from '../../types.js';
import { ConversionError } from '../openai-chat/conversion-error.js';
import { noteOmittedTools } from '../openai-chat/omitted-tools.js';
import type { ResponsesContent, ResponsesItem, ResponsesRequest, ResponsesTool } from './responses-wire.js';

// A Responses client (Codex CLI, the openai SDK's responses.create) served by a channel that only chats: the request
// becomes the hub format. Freeform ("custom") tools such as Codex's apply_patch become functions with one string
// argument, `input`, and their calls are turned back into custom tool calls on the way out (to-responses.ts).

/** The argument a custom tool's freeform input travels in while it crosses a chat-only channel. */
export const CUSTOM_INPUT = 'input';

function textOf(output: string | ResponsesContent[]): string {
  if (typeof output === 'string') return output;
  return output.map((part) => ('text' in part && typeof part.text === 'string' ? part.text : '')).join('');
}

function contentPart(part: ResponsesContent): ChatContentPart {
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      return { type: 'text', text: String((part as { text: string }).text) };
    case 'input_image': {
      const image = part as { image_url?: string; detail?: string };
      if (!image.image_url) throw new ConversionError('an image given by file id');
      return {
        type: 'image_url',
        image_url: { url: image.image_url, ...(image.detail ? { detail: image.detail } : {}) },
      };
    }
    case 'input_file': {
      const file = part as { file_data?: string; filename?: string };
      if (!file.file_data) throw new ConversionError('a file given by file id');
      return {
        type: 'file',
        file: { file_data: file.file_data, ...(file.filename ? { filename: file.filename } : {}) },
      };
    }
    case 'refusal':
      return { type: 'text', text: String((part as { refusal: string }).refusal) };
    default:
      throw new ConversionError(`a "${part.type}" content part`);
  }
}

function messageContent(content: string | ResponsesContent[]): ChatMessage['content'] {
  if (typeof content === 'string') return content;
  const parts = content.map(contentPart);
  return parts.every((part) => part.type === 'text') ? parts.map((part) => part.text).join('') : parts;
}

/** The assistant message that calls and reasoning attach to (consecutive items form one turn). */
function assistantTurn(messages: ChatMessage[]): ChatMessage {
  const last = messages.at(-1);
  if (last?.role === 'assistant') return last;
  const turn: ChatMessage = { role: 'assistant', content: null };
  messages.push(turn);
  return turn;
}

function itemsToMessages(items: ResponsesItem[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  let pendingReasoning: { text: string; signature?: string } | null = null;
  for (const item of items) {
    const type = item.type ?? 'message';
    if (type === 'message') {
      const message = item as { role: string; content: string | ResponsesContent[] };
      const role = message.role === 'developer' ? 'system' : message.role;
      const converted: ChatMessage = { role, content: messageContent(message.content) };
      if (role === 'assistant' && pendingReasoning) {
        converted.reasoning_content = pendingReasoning.text;
        if (pendingReasoning.signature) converted.reasoning_signature = pendingReasoning.signature;
        pendingReasoning = null;
      }
      messages.push(converted);
    } else if (type === 'function_call' || type === 'custom_tool_call') {
      const call = item as { call_id: string; name: string; arguments?: string; input?: string };
      const turn = assistantTurn(messages);
      if (pendingReasoning) {
        turn.reasoning_content = pendingReasoning.text;
        if (pendingReasoning.signature) turn.reasoning_signature = pendingReasoning.signature;
        pendingReasoning = null;
      }
      turn.tool_calls ??= [];
      turn.tool_calls.push({
        id: call.call_id,
        type: 'function',
        function: {
          name: call.name,
          arguments:
            type === 'custom_tool_call'
              ? JSON.stringify({ [CUSTOM_INPUT]: call.input ?? '' })
              : (call.arguments ?? '{}'),
        },
      });
    } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
      const output = item as { call_id: string; output: string | ResponsesContent[] };
      messages.push({ role: 'tool', tool_call_id: output.call_id, content: textOf(output.output) });
    } else if (type === 'reasoning') {
      const reasoning = item as { summary?: Array<{ text: string }>; encrypted_content?: string | null };
      pendingReasoning = {
        text: (reasoning.summary ?? []).map((part) => part.text).join('\n'),
        ...(reasoning.encrypted_content ? { signature: reasoning.encrypted_content } : {}),
      };
    } else {
      throw new ConversionError(`a "${type}" input item`);
    }
  }
  return messages;
}

/** A chat function name for a tool inside a namespace (chat has no namespaces; names allow [a-zA-Z0-9_-]). */
export const NAMESPACE_SEPARATOR = '__';

function functionTool(tool: ResponsesTool, prefix = ''): ChatTool | null {
  if (tool.type === 'function') {
    const fn = tool as { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean };
    return {
      type: 'function',
      function: {
        name: `${prefix}${fn.name}`,
        ...(fn.description ? { description: fn.description } : {}),
        parameters: fn.parameters ?? { type: 'object', properties: {} },
        ...(fn.strict !== undefined ? { strict: fn.strict } : {}),
      },
    };
  }
  if (tool.type === 'custom') {
    const custom = tool as { name: string; description?: string };
    return {
      type: 'function',
      function: {
        name: `${prefix}${custom.name}`,
        description:
          `${custom.description ?? ''}\nPut the tool's whole freeform input, as text, in "${CUSTOM_INPUT}".`.trim(),
        parameters: { type: 'object', properties: { [CUSTOM_INPUT]: { type: 'string' } }, required: [CUSTOM_INPUT] },
      },
    };
  }
  return null;
}

function tools(request: ResponsesRequest, omitted: string[]): ChatTool[] | undefined {
  const declared: ChatTool[] = [];
  for (const tool of request.tools ?? []) {
    if (tool.type === 'namespace') {
      // A group of tools (Codex's sub-agent tools): each becomes a function named <namespace>__<tool>.
      const group = tool as unknown as { name: string; tools?: ResponsesTool[] };
      for (const inner of group.tools ?? []) {
        const converted = functionTool(inner, `${group.name}${NAMESPACE_SEPARATOR}`);
        if (converted) declared.push(converted);
        else omitted.push(`${group.name}.${String(inner.name ?? inner.type)}`);
      }
      continue;
    }
    const converted = functionTool(tool);
    // Web search, file search, computer use and the like run on OpenAI's side.
    if (converted) declared.push(converted);
    else omitted.push(String(tool.type));
  }
  return declared.length ? declared : undefined;
}

function toolChoice(choice: ResponsesRequest['tool_choice']): ChatToolChoice | undefined {
  if (choice === undefined || typeof choice === 'string') return choice;
  if ((choice.type === 'function' || choice.type === 'custom') && choice.name) {
    return { type: 'function', function: { name: choice.name } };
  }
  throw new ConversionError(`the tool choice "${choice.type}"`);
}

/** What the answer needs to know of the request's tools to give calls back their Responses form. */
export interface ToolNames {
  /** Freeform tools (namespaced ones as <namespace>__<tool>): their calls are custom tool calls. */
  custom: ReadonlySet<string>;
  namespaces: ReadonlySet<string>;
}

export function toolNamesOf(request: ResponsesRequest): ToolNames {
  const custom = new Set<string>();
  const namespaces = new Set<string>();
  for (const tool of request.tools ?? []) {
    if (tool.type === 'custom') custom.add(String(tool.name));
    if (tool.type !== 'namespace') continue;
    namespaces.add(String(tool.name));
    for (const inner of (tool.tools as ResponsesTool[] | undefined) ?? []) {
      if (inner.type === 'custom') custom.add(`${String(tool.name)}${NAMESPACE_SEPARATOR}${String(inner.name)}`);
    }
  }
  return { custom, namespaces };
}

export function responsesToChatRequest(request: ResponsesRequest, model: string): ChatRequest {
  // A stored conversation lives on OpenAI's servers: another provider cannot continue it.
  if (request.previous_response_id) throw new ConversionError('previous_response_id (a conversation stored upstream)');
  const messages: ChatMessage[] = [];
  if (request.instructions) messages.push({ role: 'system', content: request.instructions });
  if (typeof request.input === 'string') messages.push({ role: 'user', content: request.input });
  else messages.push(...itemsToMessages(request.input ?? []));
  const chat: ChatRequest = { model, messages };
  if (request.max_output_tokens !== undefined) chat.max_tokens = request.max_output_tokens;
  if (request.temperature !== undefined) chat.temperature = request.temperature;
  if (request.top_p !== undefined) chat.top_p = request.top_p;
  if (request.user) chat.user = request.user;
  if (request.reasoning?.effort) chat.reasoning_effort = request.reasoning.effort;
  const format = request.text?.format;
  if (format?.type === 'json_schema') {
    chat.response_format = {
      type: 'json_schema',
      json_schema: { name: format.name ?? 'response', schema: format.schema },
    };
  } else if (format?.type === 'json_object') chat.response_format = { type: 'json_object' };
  const omitted: string[] = [];
  const declared = tools(request, omitted);
  noteOmittedTools(chat, omitted);
  if (declared) {
    chat.tools = declared;
    const choice = toolChoice(request.tool_choice);
    if (choice) chat.tool_choice = choice;
    if (request.parallel_tool_calls !== undefined) chat.parallel_tool_calls = request.parallel_tool_calls;
  }
  if (request.stream) {
    chat.stream = true;
    chat.stream_options = { include_usage: true };
  }
  return chat;
}
