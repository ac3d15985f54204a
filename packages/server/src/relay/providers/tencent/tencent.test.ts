import { describe, expect, it } from 'vitest';
import { newStreamState } from '../../stream/stream-state.js';
import { fromHunyuanAnswer, hunyuanError, hunyuanRefusalStatus } from './response.js';
import { hunyuanToOpenAi } from './stream.js';

describe('Hunyuan conversions', () => {
  it('reads an answer inside Response, reasoning included', () => {
    const answer = fromHunyuanAnswer(
      {
        Response: {
          Id: 'h1',
          Choices: [{ FinishReason: 'sensitive', Message: { Content: 'Hi', ReasoningContent: 'think' } }],
          Usage: { PromptTokens: 3, CompletionTokens: 2, TotalTokens: 5 },
        },
      },
      'hunyuan-t1',
    );
    expect(answer.choices[0]).toMatchObject({
      message: { content: 'Hi', reasoning_content: 'think' },
      finish_reason: 'content_filter',
    });
    expect(answer.usage).toEqual({ prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 });
  });

  it.each([
    [{ Response: { Choices: [] } }, null],
    [{ Response: { Error: { Code: 'AuthFailure.SignatureFailure' } } }, 401],
    [{ Response: { Error: { Code: 'ResourceUnavailable.InArrears' } } }, 403],
    [{ Response: { Error: { Code: 'RequestLimitExceeded' } } }, 429],
    [{ Response: { Error: { Code: 'LimitExceeded' } } }, 429],
    [{ Response: { Error: { Code: 'InternalError' } } }, 500],
    [{ Response: { Error: { Code: 'InvalidParameterValue.Model' } } }, 400],
  ])('refusal %j → %s', (json, status) => {
    expect(hunyuanRefusalStatus(json)).toBe(status);
  });

  it('reads an error body', () => {
    expect(
      hunyuanError(401, '{"Response":{"Error":{"Code":"AuthFailure.SecretIdNotFound","Message":"no key"}}}'),
    ).toEqual({
      status: 401,
      message: 'no key',
      type: 'tencent_error',
      code: 'AuthFailure.SecretIdNotFound',
    });
  });

  it('streams deltas with the usage of every event', () => {
    const converter = hunyuanToOpenAi('hunyuan-lite', false);
    const state = newStreamState();
    let out = converter.push(
      {
        data: '{"Choices":[{"Delta":{"Content":"Hi"},"FinishReason":""}],"Usage":{"PromptTokens":2,"CompletionTokens":1,"TotalTokens":3}}',
      },
      state,
      1,
    );
    out += converter.push(
      {
        data: '{"Choices":[{"Delta":{"Content":"!"},"FinishReason":"stop"}],"Usage":{"PromptTokens":2,"CompletionTokens":2,"TotalTokens":4}}',
      },
      state,
      2,
    );
    out += converter.end(state);
    expect(state.text).toBe('Hi!');
    expect(state.usage).toEqual({ prompt_tokens: 2, completion_tokens: 2, total_tokens: 4 });
    expect(out).toContain('"finish_reason":"stop"');
    // The client did not ask for the usage chunk.
    expect(out).not.toContain('"usage"');
  });
});
