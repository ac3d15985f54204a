import { describe, expect, it } from 'vitest';
import { optionsWith } from '../../../../test/helpers/options.js';
import type { ClaudeRequest } from '../../formats/anthropic/wire.js';
import type { ModelSuffix } from '../../model-suffix.js';
import { claudeProvider } from './provider.js';
import { claudeUpstreamSettings, withClaudeModelHeaders } from './settings.js';
import { withSuffixThinking } from './suffix-thinking.js';
import { CLAUDE_TEST_CHANNEL } from './test-channel.js';

const headersOption = JSON.stringify({
  'claude-3-7-sonnet-20250219': { 'anthropic-beta': ['output-128k-2025-02-19', 'token-efficient-tools-2025-02-19'] },
  'claude-sonnet-4-20250514': { 'Anthropic-Beta': ['context-1m-2025-08-07'], 'x-extra': ['a', 'b, a'] },
});
const options = await optionsWith({
  'claude.model_headers_settings': headersOption,
  'claude.default_max_tokens': JSON.stringify({ default: 4096, 'claude-opus-4-20250514': 32000 }),
});

describe('claude.* settings for a model', () => {
  it.each([
    [
      'claude-3-7-sonnet-20250219',
      4096,
      { 'anthropic-beta': 'output-128k-2025-02-19,token-efficient-tools-2025-02-19' },
    ],
    ['claude-sonnet-4-20250514', 4096, { 'anthropic-beta': 'context-1m-2025-08-07', 'x-extra': 'a,b' }],
    ['claude-opus-4-20250514', 32000, {}],
  ])('%s', (model, defaultMaxTokens, headers) => {
    expect(claudeUpstreamSettings(options, model)).toEqual({ defaultMaxTokens, headers });
  });

  it('without options: the family defaults', () => {
    expect(claudeUpstreamSettings(undefined, 'claude-3-7-sonnet-20250219')).toEqual({
      defaultMaxTokens: 8192,
      headers: {},
    });
  });

  it("adds the configured values to the client's own, each once", () => {
    const headers = { 'anthropic-beta': 'interleaved-thinking-2025-05-14, output-128k-2025-02-19', 'x-api-key': 'k' };
    expect(
      withClaudeModelHeaders(headers, { 'anthropic-beta': 'output-128k-2025-02-19,context-1m-2025-08-07' }),
    ).toEqual({
      'anthropic-beta': 'interleaved-thinking-2025-05-14,output-128k-2025-02-19,context-1m-2025-08-07',
      'x-api-key': 'k',
    });
  });
});

describe('the Claude provider applies them', () => {
  const channel = CLAUDE_TEST_CHANNEL;

  it('chat: default max tokens and the model headers', () => {
    const call = claudeProvider.functions.chat!.call(
      channel,
      { model: 'claude-3-7-sonnet-20250219', messages: [{ role: 'user', content: 'hi' }] },
      options,
    );
    expect(call.headers['anthropic-beta']).toBe('output-128k-2025-02-19,token-efficient-tools-2025-02-19');
    expect(JSON.parse(String(call.body)).max_tokens).toBe(4096);
  });

  it('Messages: the model headers merged into the client’s beta flags', () => {
    const call = claudeProvider.functions.messages!.call(
      channel,
      { model: 'x', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] },
      'claude-sonnet-4-20250514',
      { stream: false, headers: { 'anthropic-beta': 'files-api-2025-04-14' }, options },
    );
    expect(call.headers).toMatchObject({
      'anthropic-beta': 'files-api-2025-04-14,context-1m-2025-08-07',
      'x-extra': 'a,b',
    });
  });
});

describe('a Messages request to a -thinking name', () => {
  const suffix: ModelSuffix = {
    kind: 'claude-thinking',
    upstreamModel: 'claude-3-7-sonnet-20250219',
    percentage: 0.8,
    defaultMaxTokens: 8192,
  };
  const request: ClaudeRequest = {
    model: 'claude-3-7-sonnet-20250219',
    max_tokens: 2000,
    temperature: 0.3,
    top_p: 0.9,
    messages: [{ role: 'user', content: 'hi' }],
  };

  it('turns thinking on with the budget, sampling left at its defaults', () => {
    expect(withSuffixThinking(request, suffix)).toEqual({
      model: 'claude-3-7-sonnet-20250219',
      max_tokens: 2000,
      messages: request.messages,
      thinking: { type: 'enabled', budget_tokens: 1600 },
    });
  });

  it("keeps the client's own thinking, and a request without a suffix, as they are", () => {
    const own: ClaudeRequest = { ...request, thinking: { type: 'enabled', budget_tokens: 1024 } };
    expect(withSuffixThinking(own, suffix)).toBe(own);
    expect(withSuffixThinking(request, null)).toBe(request);
  });
});
