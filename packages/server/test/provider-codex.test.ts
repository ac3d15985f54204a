import { describe, expect, it } from 'vitest';
import { addChannel, apiError, balances, priceModels } from './helpers/relay.js';
import { vendorChatSuite } from './helpers/vendor-chat.js';
import { CODEX_ACCESS_TOKEN, CODEX_ACCOUNT_ID, CODEX_KEY, startCodexMock } from './mock-upstream/providers/codex.js';

// biome-ignore lint/suspicious/noExplicitAny: raw wire bodies; the assertions on them are the type check.
type WireJson = any;

const MODEL = 'gpt-5-codex';
const REPLY = `Hello from codex mock: ${MODEL}`;

describe('Codex, the ChatGPT subscription backend (type 57), through the gateway', () => {
  const suite = vendorChatSuite({ vendor: 'codex', type: 57, key: CODEX_KEY, model: MODEL, start: startCodexMock });

  const billed = async (run: () => Promise<void>) => {
    const before = await balances(suite.server, suite.root.userId!, suite.tokenKey);
    await run();
    const after = await balances(suite.server, suite.root.userId!, suite.tokenKey);
    return before.user.quota - after.user.quota;
  };

  it('sends chat as a streamed, unstored Responses request with the credential headers', async () => {
    await suite.openai.chat.completions.create({
      model: MODEL,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello' },
      ],
      max_tokens: 100,
      temperature: 0.2,
      user: 'alice',
    });
    const [sent] = suite.mock.requests;
    expect(sent!.method).toBe('POST');
    expect(sent!.path).toBe('/backend-api/codex/responses');
    expect(sent!.headers).toMatchObject({
      authorization: `Bearer ${CODEX_ACCESS_TOKEN}`,
      'chatgpt-account-id': CODEX_ACCOUNT_ID,
      'content-type': 'application/json',
      accept: 'text/event-stream',
      'openai-beta': 'responses=experimental',
      originator: 'codex_cli_rs',
    });
    expect(sent!.body as WireJson).toEqual({
      model: MODEL,
      instructions: 'Be brief.',
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Say hello' }] }],
      stream: true,
      store: false,
    });
  });

  it('serves a Responses client natively, whole (gathered from the stream) and streamed, billed to the unit', async () => {
    let spent = await billed(async () => {
      const response = await suite.openai.responses.create({ model: MODEL, input: 'Say hello', max_output_tokens: 50 });
      expect(response.output_text).toBe(REPLY);
      expect(response.status).toBe('completed');
      expect(response.usage).toMatchObject({ input_tokens: 5, output_tokens: 5 });
    });
    expect(spent).toBe(15);
    expect(suite.mock.requests[0]!.body as WireJson).toEqual({
      model: MODEL,
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Say hello' }] }],
      instructions: '',
      stream: true,
      store: false,
    });
    spent = await billed(async () => {
      const stream = await suite.openai.responses.create({ model: MODEL, input: 'Say hello', stream: true });
      let text = '';
      let usage: unknown;
      for await (const event of stream) {
        if (event.type === 'response.output_text.delta') text += event.delta;
        if (event.type === 'response.completed') usage = event.response.usage;
      }
      expect(text).toBe(REPLY);
      expect(usage).toMatchObject({ input_tokens: 5, output_tokens: 5 });
    });
    expect(spent).toBe(15);
  });

  it("answers the subscription's usage limit to a Responses client as 429", async () => {
    const error = await apiError(suite.openai.responses.create({ model: MODEL, input: 'Say hello [limit]' }));
    expect(error.status).toBe(429);
    expect(error.message).toContain('The usage limit has been reached');
  });

  it("refuses a key that is no OAuth credential JSON as the channel's credential failure", async () => {
    const channelId = await addChannel(suite.root, {
      type: 57,
      key: 'sk-not-a-credential',
      base_url: suite.mock.baseUrl,
      models: 'codex-bad-key',
    });
    await priceModels(suite.server, suite.root, { 'codex-bad-key': 1 });
    const error = await apiError(
      suite.openai.chat.completions.create({ model: 'codex-bad-key', messages: [{ role: 'user', content: 'hi' }] }),
    );
    // The channel's own credentials failing is the gateway's problem, not the caller's key: 503, not 401.
    expect(error.status).toBe(503);
    expect(suite.mock.requests).toHaveLength(0);
    const tested = await suite.root.get<unknown>(`/api/channel/test/${channelId}`);
    expect(tested).toMatchObject({ success: false, message: expect.stringContaining('OAuth credential JSON') });
  });
});
