import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { addChannel, addToken, apiError, openaiClient, plainMessage } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';

// A newcomer asking for a model no channel serves was told "price not configured, contact the admin": the real
// gap is the channel, and the price message stays for a model that is served but has no price.
describe('what is missing for a model: a channel or a price', () => {
  let server: TestServer;
  let root: ApiClient;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
    await addChannel(root, { type: 1, key: 'sk-x', base_url: 'http://127.0.0.1:9', models: 'served-but-unpriced' });
    key = await addToken(root, { unlimited_quota: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('says that no channel serves a model nobody serves, and that the price is missing for a served one', async () => {
    const ask = (model: string) =>
      apiError(
        openaiClient(server, key).chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] }),
      );
    const unserved = await ask('no-such-model-anywhere');
    // A 404, which SDKs do not retry: asking again cannot make the model appear.
    expect(unserved.status).toBe(404);
    expect(unserved.code).toBe('model_not_found');
    expect(plainMessage(unserved)).toBe(
      'The model no-such-model-anywhere does not exist or is not available to group default',
    );
    const unpriced = await ask('served-but-unpriced');
    expect(unpriced.status).toBe(400);
    expect(unpriced.code).toBe('model_price_error');
    expect(plainMessage(unpriced)).toContain('served-but-unpriced');
  });
});
