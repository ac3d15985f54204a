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
const WRITE_TOOLS: Array<{ name: string; args: (path: string, text: string) => Record<string, unknown> }> = [
  { name: 'Write', args: (file_path, content) => ({ file_path, content }) },
  { name: 'write_file', args: (file_path, content) => ({ file_path, content }) },
  {
    name: 'shell',
    args: (path, text) => ({ command: ['bash', '-lc', `printf '%s' '${text.replaceAll("'", "'\\''")}' > '${path}'`] }),
  },
];

const INSTRUCTION = /create the file (\S+) containing exactly: (.+?)\s*$/is;

interface ChatBody {
  stream?: boolean;
  messages?: Array<{ role: string; content?: unknown }>;
  tools?: Array<{ type?: string; function?: { name?: string }; name?: string }>;
}

export interface AgentCall {
  path: string;
  body: ChatBody;
  /** What the mock answered: a tool call or text. */
  answered: 'tool' | 'text';
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (part as { text?: string }).text ?? '').join('\n');
  return '';
}

function decide(body: ChatBody): { tool?: { name: string; arguments: string }; text: string } {
  const messages = body.messages ?? [];
  const last = messages.at(-1);
  if (last?.role === 'tool') return { text: 'Done: the file is written.' };
  const ask = [...messages]
    .reverse()
    .find((message) => message.role === 'user' && INSTRUCTION.test(textOf(message.content)));
  const declared = (body.tools ?? []).map((tool) => tool.function?.name ?? tool.name ?? '');
  const writer = WRITE_TOOLS.find((tool) => declared.includes(tool.name));
  if (!ask || !writer) return { text: 'OK.' };
  const [, path, text] = INSTRUCTION.exec(textOf(ask.content))!;
  return { tool: { name: writer.name, arguments: JSON.stringify(writer.args(path!, text!)) }, text: '' };
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

export async function startAgentModel(): Promise<{ baseUrl: string; calls: AgentCall[]; close(): Promise<void> }> {
  const calls: AgentCall[] = [];
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readBody(req);
    if (req.method === 'GET' && req.url?.startsWith('/v1/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'agent-model', object: 'model', owned_by: 'mock' }] }));
      return;
    }
    if (req.method !== 'POST' || !req.url?.startsWith('/v1/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ error: { message: `Invalid URL (${req.method} ${req.url})`, type: 'invalid_request_error' } }),
      );
      return;
    }
    const body = JSON.parse(raw.toString('utf8') || '{}') as ChatBody;
    const reply = decide(body);
    calls.push({ path: req.url, body, answered: reply.tool ? 'tool' : 'text' });
    answer(res, body, reply);
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
