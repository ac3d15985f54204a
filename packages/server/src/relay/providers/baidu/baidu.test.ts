import { describe, expect, it } from 'vitest';
import { newStreamState } from '../../stream/stream-state.js';
import { baiduPath } from './endpoints.js';
import { toBaiduRequest } from './request.js';
import { baiduError, baiduRefusalStatus, fromBaiduAnswer } from './response.js';
import { baiduToOpenAi } from './stream.js';

describe('Baidu ERNIE conversions', () => {
  it.each([
    ['ERNIE-4.0-8K', '/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions_pro'],
    ['ERNIE-3.5-8K', '/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions'],
    ['ERNIE-Speed-128K', '/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/ernie-speed-128k'],
    ['ERNIE-4.0-Turbo-8K', '/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/ernie-4.0-turbo-8k'],
    ['Embedding-V1', '/rpc/2.0/ai_custom/v1/wenxinworkshop/embeddings/embedding-v1'],
    ['bge-large-zh', '/rpc/2.0/ai_custom/v1/wenxinworkshop/embeddings/bge_large_zh'],
  ])('%s → %s', (model, path) => {
    expect(baiduPath(model)).toBe(path);
  });

  it('puts system text in `system` and the stop words in a list', () => {
    expect(
      toBaiduRequest({
        model: 'ERNIE-3.5-8K',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
          { role: 'assistant', content: 'Hello' },
          { role: 'user', content: 'Again' },
        ],
        stream: true,
        temperature: 0.2,
        stop: 'END',
        user: 'u1',
      }),
    ).toEqual({
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello' },
        { role: 'user', content: 'Again' },
      ],
      system: 'Be brief.',
      stream: true,
      temperature: 0.2,
      stop: ['END'],
      user_id: 'u1',
    });
  });

  it('reads an answer with its finish reason and usage', () => {
    const answer = fromBaiduAnswer(
      {
        id: 'as-1',
        result: 'Hi',
        finish_reason: 'length',
        usage: { prompt_tokens: 2, completion_tokens: 1, total_tokens: 3 },
      },
      'ERNIE-3.5-8K',
    );
    expect(answer.choices[0]).toMatchObject({ message: { content: 'Hi' }, finish_reason: 'length' });
    expect(answer.usage).toEqual({ prompt_tokens: 2, completion_tokens: 1, total_tokens: 3 });
  });

  it.each([
    [{ result: 'ok' }, null],
    [{ error_code: 110, error_msg: 'Access token invalid' }, 401],
    [{ error_code: 6, error_msg: 'No permission' }, 403],
    [{ error_code: 18, error_msg: 'qps' }, 429],
    [{ error_code: 336003, error_msg: 'bad param' }, 400],
    [{ error_code: 336100, error_msg: 'internal' }, 500],
  ])('refusal %j → %s', (json, status) => {
    expect(baiduRefusalStatus(json)).toBe(status);
  });

  it('reads chat and token endpoint errors', () => {
    expect(baiduError(429, '{"error_code":18,"error_msg":"Open api qps request limit reached"}')).toMatchObject({
      message: 'Open api qps request limit reached',
      code: '18',
    });
    expect(baiduError(401, '{"error":"invalid_client","error_description":"unknown client id"}')).toMatchObject({
      message: 'unknown client id',
      code: 'invalid_client',
    });
  });

  it('streams results, finishing on is_end with the total usage', () => {
    const converter = baiduToOpenAi('ERNIE-3.5-8K', true);
    const state = newStreamState();
    let out = converter.push(
      { data: '{"result":"Hel","is_end":false,"usage":{"prompt_tokens":2,"completion_tokens":0,"total_tokens":2}}' },
      state,
      3,
    );
    out += converter.push(
      { data: '{"result":"lo","is_end":true,"usage":{"prompt_tokens":2,"total_tokens":5}}' },
      state,
      4,
    );
    out += converter.end(state);
    expect(state.text).toBe('Hello');
    expect(state.usage).toEqual({ prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 });
    expect(out).toContain('"finish_reason":"stop"');
    expect(out.endsWith('data: [DONE]\n\n')).toBe(true);
  });
});
