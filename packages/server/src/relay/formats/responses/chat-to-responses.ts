import type { ChatResponse, ChatToolCall, Usage } from '../../types.js';
import { responseObject } from './response-object.js';
import { CUSTOM_INPUT, NAMESPACE_SEPARATOR, type ToolNames, toolNamesOf } from './responses-to-chat.js';
import type { ResponsesRequest, ResponsesUsage } from './responses-wire.js';

// The hub's answers (OpenAI chat) in the Responses API's shape, for Responses clients served by chat-only channels.

export function responsesUsageFromChat(usage: Usage | null | undefined): ResponsesUsage {
  const input = usage?.prompt_tokens ?? 0;
  const output = usage?.completion_tokens ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage?.prompt_tokens_details?.cached_tokens ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: usage?.completion_tokens_details?.reasoning_tokens ?? 0 },
    total_tokens: input + output,
  };
}

/** A custom tool's freeform input, back out of the one-argument function it crossed the channel as. */
function customInput(call: ChatToolCall): string {
  try {
    const args = JSON.parse(call.function.arguments || '{}') as Record<string, unknown>;
    return typeof args[CUSTOM_INPUT] === 'string' ? (args[CUSTOM_INPUT] as string) : call.function.arguments;
  } catch {
    return call.function.arguments;
  }
}

/** A namespaced tool's call names the tool and its namespace apart, as the client declared them. */
function splitName(name: string, names: ToolNames): { name: string; namespace?: string } {
  const at = name.indexOf(NAMESPACE_SEPARATOR);
  const namespace = at > 0 ? name.slice(0, at) : '';
  return namespace && names.namespaces.has(namespace)
    ? { name: name.slice(at + NAMESPACE_SEPARATOR.length), namespace }
    : { name };
}

export function callItem(call: ChatToolCall, names: ToolNames, status = 'completed'): Record<string, unknown> {
  const named = splitName(call.function.name, names);
  if (names.custom.has(call.function.name)) {
    return {
      type: 'custom_tool_call',
      id: `ctc_${call.id}`,
      call_id: call.id,
      ...named,
      input: customInput(call),
      status,
    };
  }
  return {
    type: 'function_call',
    id: `fc_${call.id}`,
    call_id: call.id,
    ...named,
    arguments: call.function.arguments,
    status,
  };
}

export function reasoningItem(id: string, text: string, signature: string | undefined): Record<string, unknown> {
  return {
    type: 'reasoning',
    id,
    summary: text ? [{ type: 'summary_text', text }] : [],
    ...(signature ? { encrypted_content: signature } : {}),
  };
}

/** An output_text content part; the gateway has no token log probabilities to give. */
export function outputTextPart(text: string): Record<string, unknown> {
  return { type: 'output_text', text, annotations: [], logprobs: [] };
}

export function messageItem(id: string, text: string, status = 'completed'): Record<string, unknown> {
  return { type: 'message', id, status, role: 'assistant', content: [outputTextPart(text)] };
}

export function chatToResponsesAnswer(
  answer: ChatResponse,
  model: string,
  request: ResponsesRequest,
): Record<string, unknown> {
  const names = toolNamesOf(request);
  const choice = answer.choices?.[0];
  const message = choice?.message;
  const base = answer.id || Date.now().toString(36);
  const output: unknown[] = [];
  if (message?.reasoning_content)
    output.push(reasoningItem(`rs_${base}`, message.reasoning_content, message.reasoning_signature));
  if (typeof message?.content === 'string' && message.content) output.push(messageItem(`msg_${base}`, message.content));
  for (const call of message?.tool_calls ?? []) output.push(callItem(call, names));
  return responseObject(request, {
    id: `resp_${base}`,
    model,
    createdAt: answer.created ?? Math.floor(Date.now() / 1000),
    status: 'completed',
    output,
    usage: responsesUsageFromChat(answer.usage),
    finish: choice?.finish_reason,
  });
}
