import { describe, expect, it } from 'vitest';
import { newStreamState } from '../../stream/stream-state.js';
import { fromZhipuAnswer, zhipuError, zhipuRefusalStatus } from './response.js';
import { zhipuToOpenAi } from './stream.js';
import { signZhipuToken, zhipuToken } from './token.js';

const chunksOf = (out: string) =>
  out
    .split('\n\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice(6)));

describe('Zhipu legacy token', () => {
  it('is an HS256 JWT with sign_type SIGN and millisecond claims, signed with the secret', () => {
    const [header, payload] = signZhipuToken('abc.secret', 1_700_000_000_000).split('.');
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({ alg: 'HS256', sign_type: 'SIGN' });
    expect(JSON.parse(Buffer.from(payload!, 'base64url').toString())).toEqual({
      api_key: 'abc',
      exp: 1_700_000_000_000 + 86_400_000,
      timestamp: 1_700_000_000_000,
    });
    expect(signZhipuToken('no-dot', 1)).toBe('');
  });

  it('is reused until ten minutes before it expires', () => {
    const first = zhipuToken('reuse.secret', 1_000_000);
    expect(zhipuToken('reuse.secret', 1_000_000 + 86_400_000 - 600_001)).toBe(first);
    expect(zhipuToken('reuse.secret', 1_000_000 + 86_400_000 - 600_000)).not.toBe(first);
  });
});

describe('Zhipu legacy answers', () => {
  it('unquotes the content and keeps the usage', () => {
    const answer = fromZhipuAnswer(
      {
        code: 200,
        success: true,
        data: {
          task_id: 't1',
          choices: [{ role: 'assistant', content: '"Hi\\nthere"' }],
          usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
        },
      },
      'chatglm_pro',
    );
    expect(answer.choices[0]!.message.content).toBe('Hi\nthere');
    expect(answer.usage).toEqual({ prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 });
  });

  it.each([
    [{ code: 200, success: true }, null],
    [{ code: 1002, msg: 'token', success: false }, 401],
    [{ code: 1113, msg: 'arrears', success: false }, 403],
    [{ code: 1302, msg: 'busy', success: false }, 429],
    [{ code: 1214, msg: 'bad param', success: false }, 400],
    [{ code: 500, msg: 'internal', success: false }, 500],
  ])('refusal %j → %s', (json, status) => {
    expect(zhipuRefusalStatus(json)).toBe(status);
  });

  it('reads an error body', () => {
    expect(zhipuError(401, '{"code":1002,"msg":"Authorization Token非法","success":false}')).toEqual({
      status: 401,
      message: 'Authorization Token非法',
      type: 'zhipu_error',
      code: '1002',
    });
  });
});

describe('Zhipu legacy stream', () => {
  it('turns add/finish events into chunks and takes the usage from the meta line', () => {
    const converter = zhipuToOpenAi('chatglm_std', true);
    const state = newStreamState();
    let out = converter.push({ event: 'add', data: 'Hello' }, state, 5);
    out += converter.push({ event: 'add', data: ' a\nb' }, state, 6);
    out += converter.field!('meta', '{"usage":{"prompt_tokens":4,"completion_tokens":3,"total_tokens":7}}', state);
    out += converter.push({ event: 'finish', data: '' }, state, 7);
    out += converter.end(state);
    const chunks = chunksOf(out);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta)).toEqual([
      { role: 'assistant', content: 'Hello' },
      { content: ' a\nb' },
      {},
      undefined,
    ]);
    expect(chunks[2].choices[0].finish_reason).toBe('stop');
    expect(chunks[3].usage).toEqual({ prompt_tokens: 4, completion_tokens: 3, total_tokens: 7 });
    expect(state).toMatchObject({ text: 'Hello a\nb', firstTokenMs: 5 });
    expect(out.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('ends a filtered answer with content_filter and reports an error event as an error chunk', () => {
    const state = newStreamState();
    const converter = zhipuToOpenAi('chatglm_std', false);
    expect(chunksOf(converter.push({ event: 'interrupted', data: '' }, state, 1))[0].choices[0].finish_reason).toBe(
      'content_filter',
    );
    expect(chunksOf(converter.push({ event: 'error', data: 'overloaded' }, newStreamState(), 1))).toEqual([
      { error: { message: 'overloaded', type: 'upstream_error', code: 'zhipu_error' } },
    ]);
  });
});
