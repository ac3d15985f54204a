import { answerJson, type Exchange } from './exchange.js';
import { jsonBody, openaiError, openaiJsonCheck } from './openai.js';
import { openaiStoredResponseRoutes, storeResponse } from './openai-responses-store.js';
import { exact, type Route } from './route.js';
import { answerStream, type StreamEvent } from './sse.js';
import {
  buildReply,
  contentText,
  countWords,
  isRecord,
  mockId,
  type PromptCount,
  type Reply,
  splitWords,
} from './text.js';

/** `input` is a string (one message) or a list of items; `instructions` counts as one more message. */
function responsesPromptCount(body: Record<string, unknown>): PromptCount {
  let words = 0;
  let messages = 0;
  if (typeof body.input === 'string') {
    words += countWords(body.input);
    messages += 1;
  } else if (Array.isArray(body.input)) {
    for (const item of body.input) {
      messages += 1;
      if (isRecord(item)) words += countWords(contentText(item.content ?? item.output));
    }
  }
  if (typeof body.instructions === 'string' && body.instructions) {
    words += countWords(body.instructions);
    messages += 1;
  }
  return { words, messages };
}

function responsesUsage(usage: NonNullable<Reply['usage']>): Record<string, unknown> {
  return {
    input_tokens: usage.prompt,
    input_tokens_details: { cached_tokens: usage.cached },
    output_tokens: usage.completion,
    output_tokens_details: { reasoning_tokens: usage.reasoning },
    total_tokens: usage.prompt + usage.completion,
  };
}

interface OutputItem {
  item: Record<string, unknown>;
  /** The item as `response.output_item.added` announces it, before any content. */
  opening: Record<string, unknown>;
  /** Events between added and done, built for a given output index. */
  body(outputIndex: number): StreamEvent[];
}

function outputItems(reply: Reply): OutputItem[] {
  const items: OutputItem[] = [];
  if (reply.reasoning) {
    const id = mockId('rs_');
    const text = reply.reasoning;
    items.push({
      item: { id, type: 'reasoning', summary: [{ type: 'summary_text', text }] },
      opening: { id, type: 'reasoning', summary: [] },
      body: (output_index) => [
        {
          event: 'response.reasoning_summary_part.added',
          data: { item_id: id, output_index, summary_index: 0, part: { type: 'summary_text', text: '' } },
        },
        ...splitWords(text).map((delta) => ({
          event: 'response.reasoning_summary_text.delta',
          data: { item_id: id, output_index, summary_index: 0, delta },
          content: true,
        })),
        { event: 'response.reasoning_summary_text.done', data: { item_id: id, output_index, summary_index: 0, text } },
        {
          event: 'response.reasoning_summary_part.done',
          data: { item_id: id, output_index, summary_index: 0, part: { type: 'summary_text', text } },
        },
      ],
    });
  }
  if (reply.text || !reply.toolCall) {
    const id = mockId('msg_');
    const text = reply.text;
    const part = { type: 'output_text', text, annotations: [], logprobs: [] };
    items.push({
      item: { id, type: 'message', status: 'completed', role: 'assistant', content: [part] },
      opening: { id, type: 'message', status: 'in_progress', role: 'assistant', content: [] },
      body: (output_index) => [
        {
          event: 'response.content_part.added',
          data: { item_id: id, output_index, content_index: 0, part: { ...part, text: '' } },
        },
        ...splitWords(text).map((delta) => ({
          event: 'response.output_text.delta',
          data: { item_id: id, output_index, content_index: 0, delta, logprobs: [] },
          content: true,
        })),
        {
          event: 'response.output_text.done',
          data: { item_id: id, output_index, content_index: 0, text, logprobs: [] },
        },
        { event: 'response.content_part.done', data: { item_id: id, output_index, content_index: 0, part } },
      ],
    });
  }
  if (reply.toolCall) {
    const id = mockId('fc_');
    const call = { id, type: 'function_call', call_id: mockId('call_'), name: reply.toolCall.name };
    const args = reply.toolCall.arguments;
    items.push({
      item: { ...call, arguments: args, status: 'completed' },
      opening: { ...call, arguments: '', status: 'in_progress' },
      body: (output_index) => [
        {
          event: 'response.function_call_arguments.delta',
          data: { item_id: id, output_index, delta: args },
          content: true,
        },
        { event: 'response.function_call_arguments.done', data: { item_id: id, output_index, arguments: args } },
      ],
    });
  }
  return items;
}

/** A declared tool as OpenAI lists it back: a function tool's optional fields present, `strict` defaulting to true. */
function echoedTool(tool: unknown): unknown {
  if (!isRecord(tool) || tool.type !== 'function') return tool;
  return {
    ...tool,
    description: tool.description ?? null,
    parameters: tool.parameters ?? null,
    strict: tool.strict ?? true,
  };
}

function echoedReasoning(reasoning: unknown): Record<string, unknown> {
  const asked = isRecord(reasoning) ? reasoning : {};
  return { effort: asked.effort ?? null, summary: asked.summary ?? null };
}

/** `POST /v1/responses`: the response object, or with `stream: true` the typed event stream (no `[DONE]`). */
async function responses(ex: Exchange): Promise<void> {
  const body = jsonBody(ex);
  const model = String(body.model);
  const reply = buildReply('openai', model, ex.behaviour, responsesPromptCount(body));
  const items = outputItems(reply);
  const createdAt = Math.floor(Date.now() / 1000);
  const id = mockId('resp_');
  const envelope = (status: string, output: unknown[], usage: unknown) => ({
    id,
    object: 'response',
    created_at: createdAt,
    completed_at: status === 'completed' ? Math.floor(Date.now() / 1000) : null,
    status,
    background: body.background ?? false,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    max_tool_calls: body.max_tool_calls ?? null,
    model,
    output,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    prompt_cache_key: body.prompt_cache_key ?? null,
    reasoning: echoedReasoning(body.reasoning),
    safety_identifier: body.safety_identifier ?? null,
    service_tier: body.service_tier ?? 'default',
    store: body.store ?? true,
    temperature: body.temperature ?? 1,
    text: { format: { type: 'text' }, ...(isRecord(body.text) ? body.text : {}) },
    tool_choice: body.tool_choice ?? 'auto',
    tools: Array.isArray(body.tools) ? body.tools.map(echoedTool) : [],
    top_logprobs: body.top_logprobs ?? 0,
    top_p: body.top_p ?? 1,
    presence_penalty: body.presence_penalty ?? 0,
    frequency_penalty: body.frequency_penalty ?? 0,
    truncation: body.truncation ?? 'disabled',
    usage: usage ?? null,
    user: body.user ?? null,
    metadata: body.metadata ?? {},
  });
  const finalUsage = reply.usage ? responsesUsage(reply.usage) : undefined;
  const final = envelope(
    'completed',
    items.map((i) => i.item),
    finalUsage,
  );
  storeResponse(ex, final);
  const headers = { 'x-request-id': mockId('req_') };
  if (body.stream !== true) {
    await answerJson(ex, final, headers);
    return;
  }
  const events: StreamEvent[] = [
    { event: 'response.created', data: { response: envelope('in_progress', [], null) } },
    { event: 'response.in_progress', data: { response: envelope('in_progress', [], null) } },
  ];
  items.forEach((entry, output_index) => {
    events.push({ event: 'response.output_item.added', data: { output_index, item: entry.opening } });
    events.push(...entry.body(output_index));
    events.push({ event: 'response.output_item.done', data: { output_index, item: entry.item } });
  });
  events.push({ event: 'response.completed', data: { response: final } });
  // Every Responses event repeats its name as `type` and carries a running sequence number.
  const numbered = events.map((event, sequence_number) => ({
    ...event,
    data: { type: event.event, sequence_number, ...(event.data as Record<string, unknown>) },
  }));
  await answerStream(ex, numbered, { chunkDelayMs: reply.chunkDelayMs, headers });
}

export const openaiResponsesRoutes: Route[] = [
  ...openaiStoredResponseRoutes,
  {
    key: 'openai.responses',
    method: 'POST',
    match: exact('/v1/responses'),
    error: openaiError,
    check: (ex) => openaiJsonCheck(ex, ['model']),
    handle: responses,
  },
];
