import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from './body.js';

/**
 * A tiny OpenAI-format "coding model" for driving real coding agents (Claude Code, Codex CLI, Gemini CLI) through the
 * gateway: asked to "create the file <path> containing exactly: <text>", it calls the file-writing tool the agent
 * declared (whatever the agent's name and argument names for it), and once the tool's result comes back it says it is
 * done. Anything else (titles, summaries, warm-up calls) gets a short text answer. Every answer reports the same
 * usage, so a test can bill the calls by hand.
 */

export const AGENT_USAGE = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };

/** A file-writing tool as each agent names it, and how its arguments are spelled. */
const shellLine = (path: string, text: string) => `printf '%s' '${text.replaceAll("'", "'\\''")}' > '${path}'`;

const WRITE_TOOLS: Array<{ name: string; args: (path: string, text: string) => Record<string, unknown> }> = [
  { name: 'Write', args: (file_path, content) => ({ file_path, content }) },
  { name: 'write_file', args: (file_path, content) => ({ file_path, content }) },
  // Codex: a freeform patch (a custom tool, which crosses a chat channel as a function with one `input` string).
  {
    name: 'apply_patch',
    args: (path, text) => ({ input: `*** Begin Patch\n*** Add File: ${path}\n+${text}\n*** End Patch\n` }),
  },
  { name: 'shell', args: (path, text) => ({ command: ['bash', '-lc', shellLine(path, text)] }) },
  { name: 'shell_command', args: (path, text) => ({ command: shellLine(path, text) }) },
  { name: 'exec_command', args: (path, text) => ({ cmd: shellLine(path, text) }) },
];

const INSTRUCTION = /create the file (\S+) containing exactly: (.+?)\s*$/is;

interface ChatBody {
  stream?: boolean;
  messages?: Array<{ role: string; content?: unknown }>;
  tools?: Array<{ type?: string; function?: { name?: string }; name?: string }>;
}

export interface AgentCall {
  format: 'openai' | 'claude' | 'gemini' | 'responses';
  /** The tools the agent declared, by name. */
  tools: string[];
  /** What the mock answered: a tool call or text. */
  answered: 'tool' | 'text';
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (part as { text?: string }).text ?? '').join('\n');
  return '';
}

/** What the mock needs to know of a request, whatever its wire format. */
interface Turn {
  tools: string[];
  /** The last message is a tool's result: the task is done. */
  toolAnswered: boolean;
  userTexts: string[];
}

function decide(turn: Turn): { tool?: { name: string; arguments: string }; text: string } {
  if (turn.toolAnswered) return { text: 'Done: the file is written.' };
  const ask = [...turn.userTexts].reverse().find((text) => INSTRUCTION.test(text));
  const writer = WRITE_TOOLS.find((tool) => turn.tools.includes(tool.name));
  if (!ask || !writer) return { text: 'OK.' };
  const [, path, text] = INSTRUCTION.exec(ask)!;
  return { tool: { name: writer.name, arguments: JSON.stringify(writer.args(path!, text!)) }, text: '' };
}

function chatTurn(body: ChatBody): Turn {
  const messages = body.messages ?? [];
  return {
    tools: (body.tools ?? []).map((tool) => tool.function?.name ?? tool.name ?? ''),
    toolAnswered: messages.at(-1)?.role === 'tool',
    userTexts: messages.filter((message) => message.role === 'user').map((message) => textOf(message.content)),
  };
}

interface ClaudeBody {
  stream?: boolean;
  tools?: Array<{ name?: string }>;
  messages?: Array<{ role: string; content: string | Array<{ type: string; text?: string }> }>;
}

function claudeTurn(body: ClaudeBody): Turn {
  const messages = body.messages ?? [];
  const last = messages.at(-1);
  const blocks = (content: string | Array<{ type: string; text?: string }>) =>
    typeof content === 'string' ? [{ type: 'text', text: content }] : content;
  return {
    tools: (body.tools ?? []).map((tool) => tool.name ?? ''),
    toolAnswered: last?.role === 'user' && blocks(last.content).some((block) => block.type === 'tool_result'),
    userTexts: messages
      .filter((message) => message.role === 'user')
      .map((message) =>
        blocks(message.content)
          .map((block) => block.text ?? '')
          .join('\n'),
      ),
  };
}

interface GeminiBody {
  tools?: Array<{ functionDeclarations?: Array<{ name?: string }> }>;
  contents?: Array<{ role?: string; parts?: Array<{ text?: string; functionResponse?: unknown }> }>;
}

function geminiTurn(body: GeminiBody): Turn {
  const contents = body.contents ?? [];
  return {
    tools: (body.tools ?? []).flatMap((tool) => (tool.functionDeclarations ?? []).map((fn) => fn.name ?? '')),
    toolAnswered: (contents.at(-1)?.parts ?? []).some((part) => part.functionResponse !== undefined),
    userTexts: contents
      .filter((content) => content.role !== 'model')
      .map((content) => (content.parts ?? []).map((part) => part.text ?? '').join('\n')),
  };
}

function answer(res: ServerResponse, body: ChatBody, reply: ReturnType<typeof decide>): void {
  const id = `chatcmpl-agent${Date.now().toString(36)}`;
  const created = Math.floor(Date.now() / 1000);
  const toolCall = reply.tool
    ? {
        id: `call_${Date.now().toString(36)}`,
        type: 'function',
        function: { name: reply.tool.name, arguments: reply.tool.arguments },
      }
    : null;
  const finish = toolCall ? 'tool_calls' : 'stop';
  if (!body.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id,
        object: 'chat.completion',
        created,
        model: 'agent-model',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: reply.text || null,
              ...(toolCall ? { tool_calls: [toolCall] } : {}),
            },
            finish_reason: finish,
          },
        ],
        usage: AGENT_USAGE,
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const send = (delta: Record<string, unknown>, finishReason: string | null = null) =>
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: 'agent-model', choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`,
    );
  send({ role: 'assistant', content: '' });
  if (reply.text) send({ content: reply.text });
  if (toolCall) {
    const args = toolCall.function.arguments;
    const half = Math.floor(args.length / 2);
    send({
      tool_calls: [
        {
          index: 0,
          id: toolCall.id,
          type: 'function',
          function: { name: toolCall.function.name, arguments: args.slice(0, half) },
        },
      ],
    });
    send({ tool_calls: [{ index: 0, function: { arguments: args.slice(half) } }] });
  }
  send({}, finish);
  res.write(
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: 'agent-model', choices: [], usage: AGENT_USAGE })}\n\n`,
  );
  res.end('data: [DONE]\n\n');
}

type Reply = ReturnType<typeof decide>;

interface ResponsesBody {
  stream?: boolean;
  tools?: Array<{ type?: string; name?: string }>;
  input?: string | Array<{ type?: string; role?: string; content?: unknown }>;
}

function responsesTurn(body: ResponsesBody): Turn {
  const items =
    typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : (body.input ?? []);
  const lastType = items.at(-1)?.type ?? 'message';
  return {
    tools: (body.tools ?? []).map((tool) => tool.name ?? ''),
    toolAnswered: lastType === 'function_call_output' || lastType === 'custom_tool_call_output',
    userTexts: items
      .filter((item) => (item.type ?? 'message') === 'message' && item.role === 'user')
      .map((item) => textOf(item.content)),
  };
}

/** A Responses answer (Codex streams): output items and the events that carry them, usage at the end. */
function answerResponses(res: ServerResponse, body: ResponsesBody, reply: Reply): void {
  const id = `resp_agent${Date.now().toString(36)}`;
  const custom = new Set((body.tools ?? []).filter((tool) => tool.type === 'custom').map((tool) => tool.name));
  const output: Array<Record<string, unknown>> = [];
  if (reply.text) {
    output.push({
      type: 'message',
      id: `msg_${id}`,
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: reply.text, annotations: [] }],
    });
  }
  if (reply.tool) {
    const callId = `call_${Date.now().toString(36)}`;
    const args = JSON.parse(reply.tool.arguments) as { input?: string };
    output.push(
      custom.has(reply.tool.name)
        ? {
            type: 'custom_tool_call',
            id: `ctc_${callId}`,
            call_id: callId,
            name: reply.tool.name,
            input: args.input ?? '',
            status: 'completed',
          }
        : {
            type: 'function_call',
            id: `fc_${callId}`,
            call_id: callId,
            name: reply.tool.name,
            arguments: reply.tool.arguments,
            status: 'completed',
          },
    );
  }
  const usage = {
    input_tokens: AGENT_USAGE.prompt_tokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: AGENT_USAGE.completion_tokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: AGENT_USAGE.total_tokens,
  };
  const response = (status: string, items: unknown[], withUsage: boolean) => ({
    id,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    model: 'agent-model',
    output: items,
    usage: withUsage ? usage : null,
  });
  if (!body.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(response('completed', output, true)));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  let sequence = 0;
  const send = (type: string, data: Record<string, unknown>) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`);
  send('response.created', { response: response('in_progress', [], false) });
  output.forEach((item, index) => {
    send('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress' } });
    if (item.type === 'message') {
      send('response.output_text.delta', {
        item_id: item.id,
        output_index: index,
        content_index: 0,
        delta: reply.text,
      });
    }
    send('response.output_item.done', { output_index: index, item });
  });
  send('response.completed', { response: response('completed', output, true) });
  res.end();
}

const CLAUDE_USAGE = { input_tokens: AGENT_USAGE.prompt_tokens, output_tokens: AGENT_USAGE.completion_tokens };

function answerClaude(res: ServerResponse, body: ClaudeBody, reply: Reply): void {
  const id = `msg_agent${Date.now().toString(36)}`;
  const toolId = `toolu_${Date.now().toString(36)}`;
  const content: Array<Record<string, unknown>> = [];
  if (reply.text) content.push({ type: 'text', text: reply.text });
  if (reply.tool)
    content.push({ type: 'tool_use', id: toolId, name: reply.tool.name, input: JSON.parse(reply.tool.arguments) });
  const stopReason = reply.tool ? 'tool_use' : 'end_turn';
  if (!body.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id,
        type: 'message',
        role: 'assistant',
        model: 'agent-model',
        content,
        stop_reason: stopReason,
        stop_sequence: null,
        usage: CLAUDE_USAGE,
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const send = (name: string, data: Record<string, unknown>) =>
    res.write(`event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`);
  send('message_start', {
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model: 'agent-model',
      content: [],
      stop_reason: null,
      usage: { input_tokens: CLAUDE_USAGE.input_tokens, output_tokens: 1 },
    },
  });
  content.forEach((block, index) => {
    if (block.type === 'text') {
      send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      send('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
    } else {
      send('content_block_start', {
        index,
        content_block: { type: 'tool_use', id: toolId, name: block.name, input: {} },
      });
      send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: reply.tool!.arguments } });
    }
    send('content_block_stop', { index });
  });
  send('message_delta', {
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: CLAUDE_USAGE.output_tokens },
  });
  send('message_stop', {});
  res.end();
}

function answerGemini(res: ServerResponse, stream: boolean, reply: Reply): void {
  const parts: Array<Record<string, unknown>> = [];
  if (reply.text) parts.push({ text: reply.text });
  if (reply.tool) parts.push({ functionCall: { name: reply.tool.name, args: JSON.parse(reply.tool.arguments) } });
  const record = {
    candidates: [{ index: 0, content: { role: 'model', parts }, finishReason: 'STOP' }],
    usageMetadata: {
      promptTokenCount: AGENT_USAGE.prompt_tokens,
      candidatesTokenCount: AGENT_USAGE.completion_tokens,
      totalTokenCount: AGENT_USAGE.total_tokens,
    },
    modelVersion: 'agent-model',
  };
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(record));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(`data: ${JSON.stringify(record)}\n\n`);
}

/** A base URL path under which the agent model acts as a chat-only upstream (`${baseUrl}${CHAT_ONLY_PREFIX}`). */
export const CHAT_ONLY_PREFIX = '/vllm';

export async function startAgentModel(): Promise<{ baseUrl: string; calls: AgentCall[]; close(): Promise<void> }> {
  const calls: AgentCall[] = [];
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readBody(req);
    if (req.method === 'GET' && req.url?.startsWith('/v1/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'agent-model', object: 'model', owned_by: 'mock' }] }));
      return;
    }
    let url = req.url ?? '';
    // The same model behind an upstream that serves chat completions only (vLLM, Ollama): other routes are 404.
    if (url.startsWith(CHAT_ONLY_PREFIX)) {
      url = url.slice(CHAT_ONLY_PREFIX.length);
      if (url.startsWith('/v1/responses')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ detail: 'Not Found' }));
        return;
      }
    }
    const json = () => JSON.parse(raw.toString('utf8') || '{}') as Record<string, unknown>;
    if (req.method === 'POST' && url.startsWith('/v1/chat/completions')) {
      const body = json() as ChatBody;
      const turn = chatTurn(body);
      const reply = decide(turn);
      calls.push({ format: 'openai', tools: turn.tools, answered: reply.tool ? 'tool' : 'text' });
      return answer(res, body, reply);
    }
    if (req.method === 'POST' && url.startsWith('/v1/messages')) {
      const body = json() as ClaudeBody;
      const turn = claudeTurn(body);
      const reply = decide(turn);
      calls.push({ format: 'claude', tools: turn.tools, answered: reply.tool ? 'tool' : 'text' });
      return answerClaude(res, body, reply);
    }
    if (req.method === 'POST' && url.startsWith('/v1/responses')) {
      const body = json() as ResponsesBody;
      const turn = responsesTurn(body);
      const reply = decide(turn);
      calls.push({ format: 'responses', tools: turn.tools, answered: reply.tool ? 'tool' : 'text' });
      return answerResponses(res, body, reply);
    }
    const gemini = /^\/v1(?:beta)?\/models\/[^:]+:(generateContent|streamGenerateContent)/.exec(url);
    if (req.method === 'POST' && gemini) {
      const turn = geminiTurn(json() as GeminiBody);
      const reply = decide(turn);
      calls.push({ format: 'gemini', tools: turn.tools, answered: reply.tool ? 'tool' : 'text' });
      return answerGemini(res, gemini[1] === 'streamGenerateContent', reply);
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ error: { message: `Invalid URL (${req.method} ${url})`, type: 'invalid_request_error' } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
