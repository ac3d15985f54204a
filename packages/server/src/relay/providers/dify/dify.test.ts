import { describe, expect, it } from 'vitest';
import { ConversionError } from '../../formats/openai-chat/conversion-error.js';
import { newStreamState } from '../../stream/stream-state.js';
import { toDifyRequest } from './request.js';
import { difyError, fromDifyAnswer, THINKING_CLOSE, THINKING_OPEN } from './response.js';
import { difyToOpenAi } from './stream.js';

const chunksOf = (out: string) =>
  out
    .split('\n\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice(6)));

describe('Dify requests', () => {
  it('folds every turn into the query; an inline image waits for its upload, anything else is refused', () => {
    const body = toDifyRequest({
      model: 'app',
      user: 'u1',
      messages: [
        { role: 'developer', content: 'x' },
        { role: 'tool', content: 'result', tool_call_id: 'c1' },
      ],
    });
    expect(body.query).toBe('USER: \nx\nUSER: \nresult\n');
    const image = (url: string) =>
      toDifyRequest({
        model: 'app',
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }],
      });
    expect(image('data:image/png;base64,AA==').files).toEqual([
      { type: 'image', transfer_mode: 'local_file', url: 'data:image/png;base64,AA==' },
    ]);
    expect(() => image('file-123')).toThrow(ConversionError);
  });
});

describe('Dify answers', () => {
  it('takes the answer and the usage; a thinking block becomes the reasoning', () => {
    const answer = fromDifyAnswer(
      {
        event: 'message',
        message_id: 'm1',
        answer: `${THINKING_OPEN}Let me think.\n${THINKING_CLOSE}\n\nHi!`,
        metadata: { usage: { prompt_tokens: 7, completion_tokens: 4, total_tokens: 11, total_price: '0.1' } },
      },
      'dify-chat',
    );
    expect(answer.id).toBe('chatcmpl-m1');
    expect(answer.choices[0]!.message).toEqual({
      role: 'assistant',
      content: 'Hi!',
      reasoning_content: 'Let me think.',
    });
    expect(answer.usage).toEqual({ prompt_tokens: 7, completion_tokens: 4, total_tokens: 11 });
  });

  it('has no usage when Dify reports none', () => {
    expect(fromDifyAnswer({ answer: 'x', metadata: {} }, 'm').usage).toBeUndefined();
  });

  it.each([
    [401, '{"code":"unauthorized","message":"Access token is invalid","status":401}', 'unauthorized'],
    [400, '{"code":"app_unavailable","message":"App unavailable","status":400}', 'app_unavailable'],
  ])('reads the error body (%s)', (status, text, code) => {
    expect(difyError(status, text)).toEqual({
      status,
      message: JSON.parse(text).message,
      type: 'dify_error',
      code,
    });
  });
});

describe('Dify stream', () => {
  it('streams answer deltas, thinking and agent thoughts as reasoning, and the usage from message_end', () => {
    const converter = difyToOpenAi('dify-chat', true);
    const state = newStreamState();
    const push = (data: Record<string, unknown>, at = 1) => converter.push({ data: JSON.stringify(data) }, state, at);
    let out = push({ event: 'agent_thought', thought: 'use search' }, 3);
    out += push({ event: 'message', answer: THINKING_OPEN });
    out += push({ event: 'message', answer: 'hmm' });
    out += push({ event: 'message', answer: THINKING_CLOSE });
    out += push({ event: 'agent_message', answer: 'Hi' });
    out += converter.push({ event: 'ping', data: '' }, state, 1);
    out += push({
      event: 'message_end',
      metadata: { usage: { prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 } },
    });
    out += converter.end(state);
    const chunks = chunksOf(out);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta)).toEqual([
      { role: 'assistant', reasoning_content: 'use search\n' },
      { reasoning_content: 'hmm' },
      { content: 'Hi' },
      {},
      undefined,
    ]);
    expect(chunks[3].choices[0].finish_reason).toBe('stop');
    expect(chunks[4].usage).toEqual({ prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 });
    expect(state.firstTokenMs).toBe(3);
  });

  it('turns an error event into an error chunk', () => {
    const out = difyToOpenAi('m', false).push(
      { data: JSON.stringify({ event: 'error', status: 400, code: 'provider_quota_exceeded', message: 'quota' }) },
      newStreamState(),
      1,
    );
    expect(chunksOf(out)).toEqual([
      { error: { message: 'quota', type: 'upstream_error', code: 'provider_quota_exceeded' } },
    ]);
  });
});
