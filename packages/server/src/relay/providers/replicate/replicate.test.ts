import { describe, expect, it } from 'vitest';
import { newStreamState } from '../../stream/stream-state.js';
import type { RuntimeChannel } from '../../types.js';
import { replicateImages, sizeInput } from './images.js';
import { replicateProvider } from './provider.js';
import { predictionTarget, toReplicateInput } from './request.js';
import { fromPrediction, replicateError } from './response.js';
import { PREDICTION_EVENT, replicateToOpenAi } from './stream.js';

const chunksOf = (out: string) =>
  out
    .split('\n\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice(6)));

const channel: RuntimeChannel = { id: 1, type: 56, name: 'r', baseUrl: '', key: 'r8_x', other: '', organization: null };

describe('Replicate requests', () => {
  it('runs owner/name on its model endpoint and owner/name:version as a pinned prediction', () => {
    expect(predictionTarget('meta/meta-llama-3-8b-instruct')).toEqual({
      path: '/v1/models/meta/meta-llama-3-8b-instruct/predictions',
    });
    expect(predictionTarget('replicate/llama-7b:ac808388e2e9')).toEqual({
      path: '/v1/predictions',
      version: 'ac808388e2e9',
    });
    const call = replicateProvider.functions.chat!.call(channel, {
      model: 'acme/chat:v1',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    expect(call.url).toBe('https://api.replicate.com/v1/predictions');
    expect(JSON.parse(String(call.body))).toEqual({ version: 'v1', input: { prompt: 'hi' }, stream: true });
  });

  it('takes the text of a lone turn as the prompt, max_completion_tokens first, and a stop string', () => {
    expect(
      toReplicateInput({
        model: 'm',
        messages: [
          { role: 'developer', content: 'rules' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'describe' },
              { type: 'image_url', image_url: { url: 'https://x/y.png' } },
            ],
          },
        ],
        max_tokens: 10,
        max_completion_tokens: 20,
        top_p: 0.9,
        stop: 'END',
      }),
    ).toEqual({ prompt: 'describe', system_prompt: 'rules', max_tokens: 20, top_p: 0.9, stop_sequences: 'END' });
  });
});

describe('Replicate answers', () => {
  it('joins the output pieces and bills from the metrics', () => {
    const answer = fromPrediction(
      {
        id: 'p1',
        status: 'succeeded',
        output: ['Hel', 'lo', '!'],
        metrics: { predict_time: 1, input_token_count: 8, output_token_count: 3 },
      },
      'm',
    );
    expect(answer.id).toBe('chatcmpl-p1');
    expect(answer.choices[0]!.message.content).toBe('Hello!');
    expect(answer.usage).toEqual({ prompt_tokens: 8, completion_tokens: 3, total_tokens: 11 });
    expect(fromPrediction({ output: 'whole', metrics: { predict_time: 1 } }, 'm').usage).toBeUndefined();
  });

  it('reads problem details', () => {
    expect(replicateError(429, '{"title":"Request was throttled","detail":"slow down","status":429}')).toEqual({
      status: 429,
      message: 'slow down',
      type: 'replicate_error',
      code: 'Request was throttled',
    });
  });
});

describe('Replicate stream', () => {
  it('streams output events as text, finishes at done, and takes the usage from the prediction event', () => {
    const converter = replicateToOpenAi('m', true);
    const state = newStreamState();
    let out = converter.push({ event: 'output', data: 'Hi\nthere' }, state, 4);
    out += converter.push({ event: 'done', data: '{}' }, state, 5);
    out += converter.push(
      {
        event: PREDICTION_EVENT,
        data: '{"status":"succeeded","metrics":{"input_token_count":2,"output_token_count":2}}',
      },
      state,
      6,
    );
    out += converter.end(state);
    const chunks = chunksOf(out);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta)).toEqual([
      { role: 'assistant', content: 'Hi\nthere' },
      {},
      undefined,
    ]);
    expect(chunks[1].choices[0].finish_reason).toBe('stop');
    expect(chunks[2].usage).toEqual({ prompt_tokens: 2, completion_tokens: 2, total_tokens: 4 });
  });

  it('turns an error event and a canceled prediction into error chunks', () => {
    const converter = replicateToOpenAi('m', false);
    expect(chunksOf(converter.push({ event: 'error', data: '{"detail":"boom"}' }, newStreamState(), 1))).toEqual([
      { error: { message: 'boom', type: 'upstream_error', code: 'replicate_error' } },
    ]);
    expect(
      chunksOf(converter.push({ event: 'done', data: '{"reason":"canceled"}' }, newStreamState(), 1))[0].error.message,
    ).toBe('the prediction was canceled');
  });
});

describe('Replicate images', () => {
  it.each([
    ['1024x1024', { aspect_ratio: '1:1' }],
    ['1792x1024', { aspect_ratio: '16:9' }],
    ['1024x1792', { aspect_ratio: '9:16' }],
    ['1536x1024', { aspect_ratio: '3:2' }],
    ['1280x1024', { aspect_ratio: '5:4' }],
    ['1000x700', { aspect_ratio: 'custom', width: 992, height: 704 }],
    ['3000x100', { aspect_ratio: 'custom', width: 1440, height: 256 }],
    ['big', {}],
  ])('size %s → %j', (size, input) => {
    expect(sizeInput(size)).toEqual(input);
  });

  it("passes the client's own input object to the model, and reads one or many output URLs", () => {
    const call = replicateImages.call(
      channel,
      JSON.stringify({ model: 'x', prompt: 'p', output_format: 'png', input: { seed: 7, go_fast: true } }),
      'black-forest-labs/flux-dev',
      'application/json',
    );
    expect(call.url).toBe('https://api.replicate.com/v1/models/black-forest-labs/flux-dev/predictions');
    expect(JSON.parse(String(call.body))).toEqual({
      input: { prompt: 'p', output_format: 'png', seed: 7, go_fast: true },
    });
    expect(replicateImages.answer!({ output: 'https://r/a.png' }, 'm').data).toEqual([{ url: 'https://r/a.png' }]);
    expect(replicateImages.answer!({ output: ['https://r/a.png', null] }, 'm').data).toEqual([
      { url: 'https://r/a.png' },
    ]);
  });
});
