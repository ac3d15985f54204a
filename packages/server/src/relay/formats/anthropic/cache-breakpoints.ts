import type { ClaudeBlock, ClaudeMessage, ClaudeRequest } from './wire.js';

/** Anthropic accepts at most four `cache_control` breakpoints per request. */
const MAX_BREAKPOINTS = 4;
const EPHEMERAL = { type: 'ephemeral' } as const;

/** Blocks that may carry a breakpoint (thinking blocks may not). */
const MARKABLE = new Set(['text', 'image', 'document', 'tool_use', 'tool_result']);

function countIn(blocks: readonly { cache_control?: unknown }[] | undefined): number {
  return blocks?.reduce((sum, block) => sum + (block.cache_control ? 1 : 0), 0) ?? 0;
}

function existingBreakpoints(request: ClaudeRequest): number {
  let count = countIn(request.tools);
  if (Array.isArray(request.system)) count += countIn(request.system);
  for (const message of request.messages) {
    if (Array.isArray(message.content)) count += countIn(message.content as { cache_control?: unknown }[]);
  }
  return count;
}

/** The message's content with its last markable block marked, or null when none can be (or it already is). */
function markedContent(message: ClaudeMessage): ClaudeBlock[] | null {
  if (typeof message.content === 'string') {
    return message.content ? [{ type: 'text', text: message.content, cache_control: EPHEMERAL }] : null;
  }
  for (let index = message.content.length - 1; index >= 0; index--) {
    const block = message.content[index]!;
    if (!MARKABLE.has(block.type)) continue;
    if ((block as { cache_control?: unknown }).cache_control) return null;
    const content = [...message.content];
    content[index] = { ...block, cache_control: EPHEMERAL } as ClaudeBlock;
    return content;
  }
  return null;
}

/**
 * Prompt-cache breakpoints for a Claude upstream that would otherwise cache nothing (a chat client converted, or a
 * Messages client that sets none): the tool definitions, the system prompt and the last user turn, in that order
 * (the order of Anthropic's cache prefix), each only where the request has none and never past the four Anthropic
 * allows, counting the client's own. Deterministic, so the same conversation prefix stays the same bytes turn to
 * turn. Off unless the channel's setting asks (`claude_cache_breakpoints`): a cache write costs 1.25 × input.
 */
export function withCacheBreakpoints(request: ClaudeRequest): ClaudeRequest {
  let room = MAX_BREAKPOINTS - existingBreakpoints(request);
  if (room <= 0) return request;
  const next: ClaudeRequest = { ...request };
  const tools = request.tools;
  if (tools?.length && !tools.some((tool) => tool.cache_control)) {
    next.tools = [...tools.slice(0, -1), { ...tools.at(-1)!, cache_control: EPHEMERAL }];
    room -= 1;
  }
  const system = request.system;
  if (room > 0 && system && (typeof system === 'string' || !system.some((block) => block.cache_control))) {
    if (typeof system === 'string') next.system = [{ type: 'text', text: system, cache_control: EPHEMERAL }];
    else if (system.length) next.system = [...system.slice(0, -1), { ...system.at(-1)!, cache_control: EPHEMERAL }];
    if (typeof system === 'string' || system.length) room -= 1;
  }
  if (room > 0) {
    const last = request.messages.findLastIndex((message) => message.role === 'user');
    const content = last >= 0 ? markedContent(request.messages[last]!) : null;
    if (content) {
      next.messages = [...request.messages];
      next.messages[last] = { ...request.messages[last]!, content };
    }
  }
  return next;
}
