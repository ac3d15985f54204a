import { describe, expect, it } from 'vitest';
import { withCacheBreakpoints } from './cache-breakpoints.js';
import type { ClaudeRequest } from './wire.js';

const EPHEMERAL = { type: 'ephemeral' };
const tool = (name: string) => ({ name, input_schema: { type: 'object' } });

function request(fields: Partial<ClaudeRequest>): ClaudeRequest {
  return { model: 'claude-sonnet-4-5', max_tokens: 100, messages: [], ...fields };
}

const marks = (body: unknown) => JSON.stringify(body).split('"cache_control"').length - 1;

describe('automatic prompt-cache breakpoints', () => {
  it('marks the last tool, the system prompt and the last user turn', () => {
    const out = withCacheBreakpoints(
      request({
        tools: [tool('a'), tool('b')],
        system: 'You are terse.',
        messages: [
          { role: 'user', content: 'first' },
          { role: 'assistant', content: 'ok' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'second' },
              { type: 'thinking', thinking: 'x' },
            ],
          },
        ],
      }),
    );
    expect(out.tools).toEqual([tool('a'), { ...tool('b'), cache_control: EPHEMERAL }]);
    expect(out.system).toEqual([{ type: 'text', text: 'You are terse.', cache_control: EPHEMERAL }]);
    expect(out.messages[0]!.content).toBe('first');
    // The thinking block cannot carry a breakpoint: the text before it does.
    expect(out.messages[2]!.content).toEqual([
      { type: 'text', text: 'second', cache_control: EPHEMERAL },
      { type: 'thinking', thinking: 'x' },
    ]);
    expect(marks(out)).toBe(3);
  });

  it("keeps the client's own breakpoints and never goes past four", () => {
    const own = request({
      system: [
        { type: 'text', text: 'a', cache_control: EPHEMERAL },
        { type: 'text', text: 'b', cache_control: EPHEMERAL },
      ],
      tools: [tool('t')],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'q', cache_control: EPHEMERAL }] },
        { role: 'user', content: 'last' },
      ],
    });
    const out = withCacheBreakpoints(own);
    // Three were there; only the tool gets the fourth, the system (already marked) and the last turn nothing.
    expect(marks(out)).toBe(4);
    expect(out.tools![0]!.cache_control).toEqual(EPHEMERAL);
    expect(out.messages[1]!.content).toBe('last');
    const full = request({ ...own, tools: [{ ...tool('t'), cache_control: EPHEMERAL }] });
    expect(withCacheBreakpoints(full)).toBe(full);
  });
});
