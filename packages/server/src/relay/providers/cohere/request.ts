import { ConversionError } from '../../formats/openai-chat/conversion-error.js';
import { imageUrlOf, messageText } from '../../formats/openai-chat/text-content.js';
import type { ChatContentPart, ChatMessage, ChatRequest, ChatTool } from '../../types.js';
import type { CohereChatRequest, CohereContentPart, CohereMessage } from './wire.js';

// The hub format (OpenAI chat) → Cohere's v2 chat. The message list keeps OpenAI's roles; what differs is the shape
// of some fields (top_p is `p`, stop is `stop_sequences`, tool_choice has only REQUIRED and NONE).

function userPart(part: ChatContentPart): CohereContentPart | null {
  if (part.type === 'text' || part.type === 'input_text') {
    return typeof part.text === 'string' && part.text !== '' ? { type: 'text', text: part.text } : null;
  }
  if (part.type === 'image_url') {
    const url = imageUrlOf(part as { image_url?: { url: string } | string });
    if (!url) return null;
    const detail = typeof part.image_url === 'object' ? part.image_url.detail : undefined;
    return { type: 'image_url', image_url: detail ? { url, detail } : { url } };
  }
  throw new ConversionError(`a "${part.type}" content part`);
}

function userContent(message: ChatMessage): string | CohereContentPart[] {
  if (!Array.isArray(message.content)) return messageText(message);
  const parts = message.content.map(userPart).filter((part): part is CohereContentPart => part !== null);
  // A text-only message goes as a plain string, the form every Cohere model takes.
  return parts.every((part) => part.type === 'text') ? parts.map((part) => part.text).join('\n') : parts;
}

function assistantMessage(message: ChatMessage): CohereMessage | null {
  const text = messageText(message);
  const calls = (message.tool_calls ?? []).map((call) => ({
    id: call.id,
    type: 'function' as const,
    function: { name: call.function.name, arguments: call.function.arguments || '{}' },
  }));
  if (!text && calls.length === 0) return null;
  const converted: CohereMessage = { role: 'assistant' };
  if (text) converted.content = text;
  if (calls.length) {
    converted.tool_calls = calls;
    // Cohere's tool plan came back to the client as reasoning (response.ts); it goes back with its calls.
    if (message.reasoning_content) converted.tool_plan = message.reasoning_content;
  }
  return converted;
}

function toCohereMessage(message: ChatMessage): CohereMessage | null {
  switch (message.role) {
    case 'system':
    case 'developer':
      return { role: 'system', content: messageText(message) };
    case 'assistant':
      return assistantMessage(message);
    case 'tool':
      return { role: 'tool', tool_call_id: message.tool_call_id ?? '', content: messageText(message) };
    default:
      return { role: 'user', content: userContent(message) };
  }
}

function toolsOf(request: ChatRequest): ChatTool[] {
  const tools = (request.tools ?? []).filter((tool) => tool.type === 'function');
  const choice = request.tool_choice;
  // Cohere cannot name the one tool to call: offering only that tool and requiring a call means the same.
  if (typeof choice === 'object' && choice?.function?.name) {
    return tools.filter((tool) => tool.function.name === choice.function.name);
  }
  return tools;
}

/** OpenAI's JSON modes: Cohere's json_object takes the schema itself (json_schema) when there is one. */
function responseFormat(request: ChatRequest): CohereChatRequest['response_format'] {
  const format = request.response_format;
  if (format?.type === 'json_object') return { type: 'json_object' };
  if (format?.type === 'json_schema') {
    return format.json_schema?.schema
      ? { type: 'json_object', json_schema: format.json_schema.schema }
      : { type: 'json_object' };
  }
  return undefined;
}

export function toCohereRequest(request: ChatRequest): CohereChatRequest {
  const body: CohereChatRequest = {
    model: request.model,
    messages: request.messages.map(toCohereMessage).filter((message): message is CohereMessage => message !== null),
  };
  if (request.stream) body.stream = true;
  const tools = toolsOf(request);
  if (tools.length) {
    body.tools = tools.map((tool) => ({
      type: 'function',
      function: {
        name: tool.function.name,
        ...(tool.function.description ? { description: tool.function.description } : {}),
        // Cohere requires the parameters; a tool without them takes no arguments.
        parameters: tool.function.parameters ?? { type: 'object', properties: {} },
      },
    }));
    if (tools.some((tool) => tool.function.strict === true)) body.strict_tools = true;
    const choice = request.tool_choice;
    if (choice === 'none') body.tool_choice = 'NONE';
    else if (choice === 'required' || typeof choice === 'object') body.tool_choice = 'REQUIRED';
  }
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  if (maxTokens !== undefined) body.max_tokens = maxTokens;
  if (request.stop !== undefined) body.stop_sequences = Array.isArray(request.stop) ? request.stop : [request.stop];
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.top_p !== undefined) body.p = request.top_p;
  if (typeof request.top_k === 'number') body.k = request.top_k;
  if (typeof request.seed === 'number') body.seed = request.seed;
  if (typeof request.frequency_penalty === 'number') body.frequency_penalty = request.frequency_penalty;
  if (typeof request.presence_penalty === 'number') body.presence_penalty = request.presence_penalty;
  const format = responseFormat(request);
  if (format) body.response_format = format;
  // Cohere's reasoning models think unless told not to, and other models need not accept `thinking`: only an effort of
  // none says something Cohere needs to hear.
  if (request.reasoning_effort === 'none') body.thinking = { type: 'disabled' };
  return body;
}
