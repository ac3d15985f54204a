import type { ChatContentPart, ChatMessage, ChatRequest } from '../../types.js';
import { ConversionError } from '../openai-chat/conversion-error.js';
import type { ResponsesContent, ResponsesItem, ResponsesRequest, ResponsesTool } from './responses-wire.js';

// A chat client (OpenAI chat completions) served through the Responses API: models that only answer there (o1-pro,
// the codex models, a Codex channel), or channels the operator routes so with
// `global.chat_completions_to_responses_policy`. What the Responses API cannot express is refused, not dropped.

/** Fields with the same name and meaning on both APIs. */
const SAME_FIELDS = [
  'temperature',
  'top_p',
  'parallel_tool_calls',
  'user',
  'metadata',
  'store',
  'service_tier',
  'prompt_cache_key',
  'safety_identifier',
  'top_logprobs',
] as const;

function part(item: ChatContentPart, role: string): ResponsesContent {
  if (item.type === 'text') {
    return { type: role === 'assistant' ? 'output_text' : 'input_text', text: String(item.text ?? '') };
  }
  if (item.type === 'image_url') {
    const image = typeof item.image_url === 'string' ? { url: item.image_url } : item.image_url;
    if (!image?.url) throw new ConversionError('an image without a URL');
    return { type: 'input_image', image_url: image.url, ...(image.detail ? { detail: image.detail } : {}) };
  }
  if (item.type === 'file' && item.file) {
    const { file_data, file_id, filename } = item.file;
    return {
      type: 'input_file',
      ...(file_data ? { file_data } : {}),
      ...(file_id ? { file_id } : {}),
      ...(filename ? { filename } : {}),
    };
  }
  throw new ConversionError(`a "${item.type}" content part`);
}

function content(message: ChatMessage): string | ResponsesContent[] {
  if (message.content == null) return '';
  if (typeof message.content === 'string') return message.content;
  return message.content.map((item) => part(item, message.role));
}

function textOf(message: ChatMessage): string {
  if (typeof message.content === 'string') return message.content;
  return (message.content ?? []).map((item) => (item.type === 'text' ? String(item.text ?? '') : '')).join('');
}

/**
 * The conversation as input items. Leading system (and developer) messages become `instructions`; later ones stay
 * in place as developer messages. Reasoning a previous assistant turn carried is not sent back: chat completions
 * never carry it across turns either, and a signature issued by another provider would be refused as encrypted
 * content.
 */
function inputOf(messages: ChatMessage[]): { instructions: string | undefined; input: ResponsesItem[] } {
  let start = 0;
  const system: string[] = [];
  while (start < messages.length && (messages[start]!.role === 'system' || messages[start]!.role === 'developer')) {
    system.push(textOf(messages[start]!));
    start += 1;
  }
  const input: ResponsesItem[] = [];
  for (const message of messages.slice(start)) {
    switch (message.role) {
      case 'system':
      case 'developer':
        input.push({ type: 'message', role: 'developer', content: content(message) });
        break;
      case 'user':
        input.push({ type: 'message', role: 'user', content: content(message) });
        break;
      case 'assistant': {
        const text = content(message);
        if (text.length > 0) input.push({ type: 'message', role: 'assistant', content: text });
        for (const call of message.tool_calls ?? []) {
          if (call.type !== 'function') throw new ConversionError(`a "${call.type}" tool call`);
          input.push({
            type: 'function_call',
            call_id: call.id,
            name: call.function.name,
            arguments: call.function.arguments || '{}',
          });
        }
        break;
      }
      case 'tool': {
        if (!message.tool_call_id) throw new ConversionError('a tool result without tool_call_id');
        const output =
          typeof message.content === 'string' || message.content == null ? textOf(message) : content(message);
        input.push({ type: 'function_call_output', call_id: message.tool_call_id, output });
        break;
      }
      default:
        throw new ConversionError(`a "${message.role}" message`);
    }
  }
  return { instructions: system.length > 0 ? system.join('\n\n') : undefined, input };
}

function toolsOf(request: ChatRequest): ResponsesTool[] | undefined {
  if (!request.tools) return undefined;
  return request.tools.map((tool) => {
    if (tool.type !== 'function') throw new ConversionError(`a "${(tool as { type: string }).type}" tool`);
    const fn = tool.function;
    return {
      type: 'function',
      name: fn.name,
      ...(fn.description ? { description: fn.description } : {}),
      parameters: fn.parameters ?? { type: 'object', properties: {} },
      // Chat tools are not strict unless asked; the Responses API defaults to strict, which rejects loose schemas.
      strict: fn.strict ?? false,
    };
  });
}

function formatOf(format: ChatRequest['response_format']): ResponsesRequest['text'] | undefined {
  if (!format || format.type === 'text') return undefined;
  if (format.type === 'json_object') return { format: { type: 'json_object' } };
  const schema = (format.json_schema ?? {}) as {
    name?: string;
    schema?: unknown;
    strict?: boolean;
    description?: string;
  };
  return {
    format: {
      type: 'json_schema',
      name: schema.name ?? 'response',
      schema: schema.schema ?? {},
      ...(schema.strict !== undefined ? { strict: schema.strict } : {}),
      ...(schema.description ? { description: schema.description } : {}),
    },
  };
}

/** Chat parameters the Responses API has no counterpart for, refused when they ask for anything but the default. */
function refuseUnexpressible(request: ChatRequest): void {
  const stop = request.stop;
  if (typeof stop === 'string' ? stop !== '' : Array.isArray(stop) && stop.length > 0) {
    throw new ConversionError('stop sequences (the Responses API has none)');
  }
  if (typeof request.n === 'number' && request.n > 1) throw new ConversionError('n > 1 (one answer per response)');
  for (const penalty of ['presence_penalty', 'frequency_penalty'] as const) {
    if (typeof request[penalty] === 'number' && request[penalty] !== 0) throw new ConversionError(penalty);
  }
  if (request.logit_bias && Object.keys(request.logit_bias as object).length > 0)
    throw new ConversionError('logit_bias');
  if (request.seed !== undefined && request.seed !== null) throw new ConversionError('seed');
  if (request.audio || (Array.isArray(request.modalities) && request.modalities.includes('audio'))) {
    throw new ConversionError('audio output');
  }
  if (request.web_search_options) throw new ConversionError('web_search_options');
}

export function chatToResponsesRequest(request: ChatRequest, upstreamModel: string): ResponsesRequest {
  refuseUnexpressible(request);
  const { instructions, input } = inputOf(request.messages);
  const body: ResponsesRequest = { model: upstreamModel, input };
  if (instructions !== undefined) body.instructions = instructions;
  const same = body as Record<string, unknown>;
  for (const field of SAME_FIELDS) {
    if (request[field] !== undefined && request[field] !== null) same[field] = request[field];
  }
  const maxOutput = request.max_completion_tokens ?? request.max_tokens;
  if (typeof maxOutput === 'number') body.max_output_tokens = maxOutput;
  const tools = toolsOf(request);
  if (tools) body.tools = tools;
  const choice = request.tool_choice;
  if (choice !== undefined)
    body.tool_choice = typeof choice === 'string' ? choice : { type: 'function', name: choice.function.name };
  if (request.reasoning_effort) body.reasoning = { effort: request.reasoning_effort };
  const text = formatOf(request.response_format);
  if (text) body.text = text;
  if (request.logprobs === true) body.include = ['message.output_text.logprobs'];
  if (request.stream) body.stream = true;
  return body;
}
