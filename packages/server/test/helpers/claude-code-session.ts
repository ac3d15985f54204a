import { randomBytes, randomUUID } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import type { RecordedRequest } from '../mock-upstream/types.js';

/**
 * A Claude Code-shaped conversation over `POST /v1/messages`, turn after turn, as the CLI sends it: streamed, a
 * `system` whose first block is the per-request `x-anthropic-billing-header` (a fresh `cch` every request) followed
 * by the cached instructions, the same tools every turn, `metadata.user_id` naming the session, cache-control
 * markers moving to the newest message, and the whole history (text answers, tool calls and their results) resent.
 */
export class ClaudeCodeSession {
  readonly session = randomUUID();
  private readonly history: Anthropic.MessageParam[] = [];
  private turns = 0;

  constructor(
    private readonly baseUrl: string,
    private readonly key: string,
    private readonly model: string,
  ) {}

  get userId(): string {
    return `user_${'a1b2c3'.repeat(10)}abcd_account__session_${this.session}`;
  }

  /** One turn on the node at `baseUrl` (default: the session's): the answer's text and tool calls join the history. */
  async turn(baseUrl = this.baseUrl): Promise<Anthropic.Message> {
    this.turns += 1;
    const previous = this.history.at(-1);
    const asked: Anthropic.MessageParam = {
      role: 'user',
      content: [
        ...toolResults(previous),
        { type: 'text', text: `Turn ${this.turns}: carry on.`, cache_control: { type: 'ephemeral' } },
      ],
    };
    const client = new Anthropic({ apiKey: this.key, baseURL: baseUrl, maxRetries: 0, timeout: 20_000 });
    const message = await client.messages
      .stream({
        model: this.model,
        max_tokens: 32_000,
        system: [
          {
            type: 'text',
            text: `x-anthropic-billing-header: cc_version=2.1.81.${randomBytes(2).toString('hex')}; cc_entrypoint=cli; cch=${randomBytes(3).toString('hex')};`,
          },
          { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude." },
          { type: 'text', text: INSTRUCTIONS, cache_control: { type: 'ephemeral' } },
        ],
        tools: TOOLS,
        metadata: { user_id: this.userId },
        // Claude Code marks only the newest user message for caching: earlier ones lose their marker.
        messages: [...this.history.map(withoutCacheControl), asked],
      })
      .finalMessage();
    this.history.push(withoutCacheControl(asked), {
      role: 'assistant',
      content: message.content.map((block) =>
        block.type === 'tool_use'
          ? { type: 'tool_use' as const, id: block.id, name: block.name, input: block.input }
          : { type: 'text' as const, text: block.type === 'text' ? block.text : '' },
      ),
    });
    return message;
  }
}

function toolResults(previous: Anthropic.MessageParam | undefined): Anthropic.ContentBlockParam[] {
  if (!previous || typeof previous.content === 'string') return [];
  const calls = previous.content.filter((block) => block.type === 'tool_use') as Anthropic.ToolUseBlockParam[];
  return calls.map((call) => ({ type: 'tool_result', tool_use_id: call.id, content: `contents of ${call.name}` }));
}

function withoutCacheControl(message: Anthropic.MessageParam): Anthropic.MessageParam {
  if (typeof message.content === 'string') return message;
  const content = (message.content as Anthropic.ContentBlockParam[]).map((block) => {
    if (!('cache_control' in block)) return block;
    const { cache_control: _marker, ...rest } = block;
    return rest as Anthropic.ContentBlockParam;
  });
  return { ...message, content } as Anthropic.MessageParam;
}

const INSTRUCTIONS = `You are an interactive CLI tool that helps users with software engineering tasks.\n${'Follow the repository conventions. '.repeat(40)}`;

const TOOLS: Anthropic.Tool[] = [
  {
    name: 'Read',
    description: 'Reads a file from the local filesystem.',
    input_schema: {
      type: 'object',
      properties: { file_path: { type: 'string' }, offset: { type: 'number' }, limit: { type: 'number' } },
      required: ['file_path'],
    },
  },
  {
    name: 'Bash',
    description: 'Executes a given bash command.',
    input_schema: {
      type: 'object',
      properties: { command: { type: 'string' }, timeout: { type: 'number' } },
      required: ['command'],
    },
  },
];

/**
 * Where each element of the body's top-level `messages` array ends in the raw text (the index after it), read
 * straight from the bytes: the upstream's prompt cache sees bytes, not parsed values.
 */
export function messageEnds(raw: string): number[] {
  const start = raw.indexOf('"messages":[');
  if (start < 0) throw new Error('no messages array in the body');
  const ends: number[] = [];
  let depth = 0;
  let inString = false;
  for (let index = start + '"messages":['.length; index < raw.length; index++) {
    const char = raw[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') {
      if (depth === 0) return ends;
      depth--;
      if (depth === 0) ends.push(index + 1);
    }
  }
  throw new Error('unterminated messages array');
}

/**
 * The raw upstream bodies of consecutive turns, checked the way a prompt cache reads them: each turn's body up to
 * the end of the previous turn's last message is byte for byte the previous body's, and everything after the
 * messages (tools, limits, options) is byte for byte the same. Returns the first difference, or null.
 */
export function prefixBreak(requests: readonly RecordedRequest[]): string | null {
  for (let turn = 1; turn < requests.length; turn++) {
    const before = requests[turn - 1]!.rawText;
    const now = requests[turn]!.rawText;
    const beforeEnds = messageEnds(before);
    const nowEnds = messageEnds(now);
    const prefix = before.slice(0, beforeEnds.at(-1));
    if (!now.startsWith(prefix)) {
      let at = 0;
      while (at < prefix.length && prefix[at] === now[at]) at++;
      return `turn ${turn + 1} differs from turn ${turn} at byte ${at}: …${now.slice(Math.max(0, at - 40), at + 40)}…`;
    }
    const tail = (raw: string, ends: number[]) => raw.slice(ends.at(-1));
    if (tail(before, beforeEnds) !== tail(now, nowEnds)) return `turn ${turn + 1}: what follows the messages differs`;
  }
  return null;
}
