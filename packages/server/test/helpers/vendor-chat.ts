import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { VendorMock } from '../mock-upstream/providers/vendor-server.js';
import { type ApiClient, setupAndLogin } from './client.js';
import { addChannel, addToken, apiError, balances, openaiClient, priceModels } from './relay.js';
import { startTestServer, type TestServer } from './server.js';

export interface VendorChat<Mock extends VendorMock> {
  server: TestServer;
  mock: Mock;
  root: ApiClient;
  channelId: number;
  tokenKey: string;
  openai: OpenAI;
}

/**
 * The chat battery every provider with its own wire format passes, over real HTTP with the official `openai` SDK
 * against the vendor's mock: a whole answer and a stream (usage chunk included) in the OpenAI format, billed to the
 * unit; a rate-limit refusal answered as 429 with the vendor's message and nothing billed; the channel test button.
 *
 * Arithmetic (mock-upstream/text.ts): "Say hello" is 2 words + 3 for its message = 5 prompt tokens; the reply
 * `Hello from <vendor> mock: <replyModel>` is 5 words. Model ratio 1 and completion ratio 2: 5 + 5 × 2 = 15 quota.
 */
export function vendorChatSuite<Mock extends VendorMock>(options: {
  vendor: string;
  type: number;
  key: string;
  model: string;
  /** The model name the mock sees and repeats (Spark's domain rather than the model). */
  replyModel?: string;
  other?: string;
  start(): Promise<Mock>;
}): VendorChat<Mock> {
  const suite = {} as VendorChat<Mock>;
  const reply = `Hello from ${options.vendor} mock: ${options.replyModel ?? options.model}`;
  const expectedUsage = { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 };
  const QUOTA = 15;

  beforeAll(async () => {
    suite.mock = await options.start();
    suite.server = await startTestServer('sqlite');
    suite.root = await setupAndLogin(suite.server.baseUrl);
    suite.channelId = await addChannel(suite.root, {
      type: options.type,
      key: options.key,
      base_url: suite.mock.baseUrl,
      models: options.model,
      other: options.other ?? '',
    });
    await priceModels(suite.server, suite.root, { [options.model]: 1 });
    const completion = suite.server.ctx.options.json<Record<string, number>>('CompletionRatio') ?? {};
    await suite.root.put('/api/option/', {
      key: 'CompletionRatio',
      value: JSON.stringify({ ...completion, [options.model]: 2 }),
    });
    suite.tokenKey = await addToken(suite.root, { remain_quota: 1_000_000 });
    suite.openai = openaiClient(suite.server, suite.tokenKey);
  });
  afterAll(async () => {
    await suite.server?.close();
    await suite.mock?.close();
  });
  beforeEach(() => {
    suite.mock.requests.length = 0;
  });

  const billed = async (run: () => Promise<void>) => {
    const before = await balances(suite.server, suite.root.userId!, suite.tokenKey);
    await run();
    const after = await balances(suite.server, suite.root.userId!, suite.tokenKey);
    return before.user.quota - after.user.quota;
  };

  it('answers a whole chat in the OpenAI format, billed from the upstream usage', async () => {
    const spent = await billed(async () => {
      const answer = await suite.openai.chat.completions.create({
        model: options.model,
        messages: [{ role: 'user', content: 'Say hello' }],
      });
      expect(answer.choices[0]!.message.content).toBe(reply);
      expect(answer.choices[0]!.finish_reason).toBe('stop');
      expect(answer.usage).toMatchObject(expectedUsage);
    });
    expect(spent).toBe(QUOTA);
  });

  it('streams OpenAI chunks with the usage chunk last, billed from the upstream usage', async () => {
    const spent = await billed(async () => {
      const stream = await suite.openai.chat.completions.create({
        model: options.model,
        messages: [{ role: 'user', content: 'Say hello' }],
        stream: true,
        stream_options: { include_usage: true },
      });
      let text = '';
      let chunks = 0;
      let finish: string | null = null;
      let usage: OpenAI.CompletionUsage | null | undefined;
      for await (const chunk of stream) {
        chunks += 1;
        text += chunk.choices[0]?.delta.content ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
        usage = chunk.usage ?? usage;
      }
      expect(text).toBe(reply);
      expect(chunks).toBeGreaterThan(3);
      expect(finish).toBe('stop');
      expect(usage).toMatchObject(expectedUsage);
    });
    expect(spent).toBe(QUOTA);
  });

  it("answers the vendor's rate-limit refusal as a 429 with its message, and bills nothing", async () => {
    const spent = await billed(async () => {
      const error = await apiError(
        suite.openai.chat.completions.create({
          model: options.model,
          messages: [{ role: 'user', content: 'Say hello [limit]' }],
        }),
      );
      expect(error.status).toBe(429);
      expect(error.message).toMatch(/limit|限/i);
    });
    expect(spent).toBe(0);
  });

  it('passes the channel test button', async () => {
    const result = await suite.root.get<{ success: boolean }>(`/api/channel/test/${suite.channelId}`);
    expect(result).toMatchObject({ success: true, message: '' });
  });

  return suite;
}
