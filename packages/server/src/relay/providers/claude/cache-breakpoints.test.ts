import { describe, expect, it } from 'vitest';
import type { ClaudeRequest } from '../../formats/anthropic/wire.js';
import { claudeProvider } from './provider.js';
import { CLAUDE_TEST_CHANNEL } from './test-channel.js';

const EPHEMERAL = { type: 'ephemeral' };
const marks = (body: unknown) => JSON.stringify(body).split('"cache_control"').length - 1;

function request(fields: Partial<ClaudeRequest>): ClaudeRequest {
  return { model: 'claude-sonnet-4-5', max_tokens: 100, messages: [], ...fields };
}

describe('the channel switch for automatic prompt-cache breakpoints', () => {
  it('is applied to converted and native requests only for a channel that asks', () => {
    const channel = CLAUDE_TEST_CHANNEL;
    const chat = {
      model: 'claude-sonnet-4-5',
      messages: [
        { role: 'system' as const, content: 'be brief' },
        { role: 'user' as const, content: 'hi' },
      ],
    };
    const plain = claudeProvider.functions.chat!.call(channel, chat);
    expect(marks(JSON.parse(String(plain.body)))).toBe(0);
    const asked = claudeProvider.functions.chat!.call(
      { ...channel, setting: { claude_cache_breakpoints: true } },
      chat,
    );
    expect(marks(JSON.parse(String(asked.body)))).toBe(2);
    const native = claudeProvider.functions.messages!.call(
      { ...channel, setting: { claude_cache_breakpoints: true } },
      request({ messages: [{ role: 'user', content: 'hello' }] }),
      'claude-sonnet-4-5',
      { stream: false, headers: {} },
    );
    expect(JSON.parse(String(native.body)).messages[0].content).toEqual([
      { type: 'text', text: 'hello', cache_control: EPHEMERAL },
    ]);
  });
});
