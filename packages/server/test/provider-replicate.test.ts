import { describe, expect, it } from 'vitest';
import { addChannel, apiError, priceModels } from './helpers/relay.js';
import { vendorChatSuite } from './helpers/vendor-chat.js';
import { REPLICATE_KEY, startReplicateMock } from './mock-upstream/providers/replicate.js';

// biome-ignore lint/suspicious/noExplicitAny: raw wire bodies; the assertions on them are the type check.
type WireJson = any;

const MODEL = 'meta/meta-llama-3-70b-instruct';

describe('Replicate language models (type 56) through the gateway', () => {
  const suite = vendorChatSuite({
    vendor: 'replicate',
    type: 56,
    key: REPLICATE_KEY,
    model: MODEL,
    start: startReplicateMock,
  });

  it("creates a waited prediction on the model's endpoint, and streams one from its stream URL", async () => {
    const messages = [
      { role: 'system' as const, content: 'Be brief.' },
      { role: 'user' as const, content: 'Hi' },
      { role: 'assistant' as const, content: 'Hello.' },
      { role: 'user' as const, content: 'Say hello' },
    ];
    await suite.openai.chat.completions.create({
      model: MODEL,
      messages,
      max_tokens: 64,
      temperature: 0.5,
      stop: ['END'],
    });
    const stream = await suite.openai.chat.completions.create({ model: MODEL, messages, stream: true });
    for await (const _ of stream) {
      // drained
    }
    const [whole, created, streamed, finished] = suite.mock.requests;
    expect([whole!.method, whole!.path]).toEqual(['POST', `/v1/models/${MODEL}/predictions`]);
    expect(whole!.headers).toMatchObject({ authorization: `Bearer ${REPLICATE_KEY}`, prefer: 'wait' });
    expect(whole!.body as WireJson).toEqual({
      input: {
        prompt: 'User: Hi\n\nAssistant: Hello.\n\nUser: Say hello',
        system_prompt: 'Be brief.',
        max_tokens: 64,
        temperature: 0.5,
        stop_sequences: 'END',
      },
    });
    expect((created!.body as WireJson).stream).toBe(true);
    const id = /^\/stream\/(rmock\d+)$/.exec(streamed!.path)?.[1];
    expect([streamed!.method, streamed!.headers.accept, id]).toEqual(['GET', 'text/event-stream', expect.any(String)]);
    expect(streamed!.headers.authorization).toBe(`Bearer ${REPLICATE_KEY}`);
    expect([finished!.method, finished!.path]).toEqual(['GET', `/v1/predictions/${id}`]);
  });

  it('asks after a prediction that is still running when the wait ends', async () => {
    const answer = await suite.openai.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Say hello [slow]' }],
    });
    expect(answer.choices[0]!.message.content).toBe(`Hello from replicate mock: ${MODEL}`);
    expect(suite.mock.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      `POST /v1/models/${MODEL}/predictions`,
      expect.stringMatching(/^GET \/v1\/predictions\/rmock\d+$/),
    ]);
  });

  it('generates images with an image model: size as aspect ratio, n as num_outputs, the output URLs back', async () => {
    const FLUX = 'black-forest-labs/flux-schnell';
    await addChannel(suite.root, { type: 56, key: REPLICATE_KEY, base_url: suite.mock.baseUrl, models: FLUX });
    await priceModels(suite.server, suite.root, { [FLUX]: 1 });
    const images = await suite.openai.images.generate({
      model: FLUX,
      prompt: 'a small red circle',
      size: '1792x1024',
      n: 2,
      quality: 'hd',
    });
    const [sent] = suite.mock.requests;
    expect([sent!.method, sent!.path, sent!.headers.prefer]).toEqual([
      'POST',
      `/v1/models/${FLUX}/predictions`,
      'wait',
    ]);
    expect(sent!.body as WireJson).toEqual({
      input: { prompt: 'a small red circle', aspect_ratio: '16:9', num_outputs: 2, prompt_upsampling: true },
    });
    const id = /rmock\d+/.exec(images.data![0]!.url!)?.[0];
    expect(images.data).toEqual([
      { url: `https://replicate.delivery/mock/${id}/out-0.webp` },
      { url: `https://replicate.delivery/mock/${id}/out-1.webp` },
    ]);
  });

  it('answers a failed prediction as an upstream error, whole or streamed', async () => {
    const error = await apiError(
      suite.openai.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello [fail]' }] }),
    );
    expect(error.status).toBe(500);
    expect(error.message).toContain('CUDA out of memory');
    const stream = await suite.openai.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Say hello [fail]' }],
      stream: true,
    });
    await expect(
      (async () => {
        for await (const _ of stream) {
          // read until the error
        }
      })(),
    ).rejects.toThrow('CUDA out of memory');
  });
});
