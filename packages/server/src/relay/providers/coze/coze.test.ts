import { describe, expect, it } from 'vitest';
import { newStreamState } from '../../stream/stream-state.js';
import type { RuntimeChannel } from '../../types.js';
import { cozeProvider } from './provider.js';
import { cozeError, cozeRefusalStatus, fromCozeAnswer } from './response.js';
import { cozeToOpenAi } from './stream.js';

const chunksOf = (out: string) =>
  out
    .split('\n\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice(6)));

const channel = (other: string): RuntimeChannel => ({
  id: 1,
  type: 49,
  name: 'coze',
  baseUrl: '',
  key: 'pat_x',
  other,
  organization: null,
});

describe('Coze requests', () => {
  it("takes the bot from `other`, else from the model name, on Coze's default host", () => {
    const request = { model: '7390000000000000002', messages: [{ role: 'user', content: 'hi' }], user: 'u' };
    const call = cozeProvider.functions.chat!.call(channel(' 7380000000000000001 '), request);
    expect(call.url).toBe('https://api.coze.cn/v3/chat');
    expect(call.headers.authorization).toBe('Bearer pat_x');
    expect(JSON.parse(String(call.body)).bot_id).toBe('7380000000000000001');
    expect(JSON.parse(String(cozeProvider.functions.chat!.call(channel(''), request).body)).bot_id).toBe(
      '7390000000000000002',
    );
  });
});

describe('Coze answers', () => {
  it('joins the answer messages and bills from the chat usage', () => {
    const answer = fromCozeAnswer(
      {
        chat: { id: 'c1', status: 'completed', usage: { token_count: 9, output_count: 4, input_count: 5 } },
        messages: [
          { type: 'answer', content: 'Hi', reasoning_content: 'think' },
          { type: 'verbose', content: '{}' },
          { type: 'follow_up', content: 'More?' },
        ],
      },
      'bot',
    );
    expect(answer.id).toBe('chatcmpl-c1');
    expect(answer.choices[0]!.message).toEqual({ role: 'assistant', content: 'Hi', reasoning_content: 'think' });
    expect(answer.usage).toEqual({ prompt_tokens: 5, completion_tokens: 4, total_tokens: 9 });
  });

  it.each([
    [{ code: 0, data: {} }, null],
    [{ code: 4100, msg: 'authentication is invalid' }, 401],
    [{ code: 4101, msg: 'no permission' }, 403],
    [{ code: 4013, msg: 'rate' }, 429],
    [{ code: 4200, msg: 'no bot' }, 404],
    [{ code: 4000, msg: 'bad' }, 400],
    [{ code: 5000, msg: 'internal' }, 500],
  ])('refusal %j → %s', (json, status) => {
    expect(cozeRefusalStatus(json)).toBe(status);
  });

  it('reads an error body', () => {
    expect(cozeError(401, '{"code":4100,"msg":"authentication is invalid"}')).toEqual({
      status: 401,
      message: 'authentication is invalid',
      type: 'coze_error',
      code: '4100',
    });
  });
});

describe('Coze stream', () => {
  it('streams the answer deltas only, then the usage of the completed chat', () => {
    const converter = cozeToOpenAi('bot', true);
    const state = newStreamState();
    const push = (event: string, data: unknown) => converter.push({ event, data: JSON.stringify(data) }, state, 2);
    let out = push('conversation.chat.created', { id: 'c1', status: 'created' });
    out += push('conversation.message.delta', { type: 'answer', content: '', reasoning_content: 'hm' });
    out += push('conversation.message.delta', { type: 'answer', content: 'Hi' });
    out += push('conversation.message.delta', { type: 'function_call', content: '{"name":"x"}' });
    out += push('conversation.message.completed', { type: 'answer', content: 'Hi' });
    out += push('conversation.chat.completed', {
      id: 'c1',
      usage: { token_count: 3, output_count: 1, input_count: 2 },
    });
    out += converter.push({ event: 'done', data: '"[DONE]"' }, state, 3);
    out += converter.end(state);
    const chunks = chunksOf(out);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta)).toEqual([
      { role: 'assistant', reasoning_content: 'hm' },
      { content: 'Hi' },
      {},
      undefined,
    ]);
    expect(chunks[3].usage).toEqual({ prompt_tokens: 2, completion_tokens: 1, total_tokens: 3 });
    expect(out.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('turns a failed chat and an error event into error chunks', () => {
    const converter = cozeToOpenAi('bot', false);
    const failed = converter.push(
      { event: 'conversation.chat.failed', data: '{"status":"failed","last_error":{"code":4011,"msg":"no credit"}}' },
      newStreamState(),
      1,
    );
    expect(chunksOf(failed)).toEqual([{ error: { message: 'no credit', type: 'upstream_error', code: '4011' } }]);
    const error = converter.push({ event: 'error', data: '{"code":4000,"msg":"bad"}' }, newStreamState(), 1);
    expect(chunksOf(error)).toEqual([{ error: { message: 'bad', type: 'upstream_error', code: '4000' } }]);
  });
});
