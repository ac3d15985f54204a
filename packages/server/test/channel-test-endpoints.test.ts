import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { addChannel } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

// The channel test button asks each model on the endpoint it serves, as the family does: a chat request to an
// embedding or speech model would fail and could disable a healthy channel.
describe('channel test by endpoint', () => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  let id: number;

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
    id = await addChannel(root, {
      type: 1,
      key: 'sk-test-endpoints',
      base_url: mock.baseUrl,
      models: 'gpt-4o-mini,text-embedding-3-small,rerank-english-v3.0,dall-e-3,tts-1,whisper-1,omni-moderation-latest',
    });
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  it.each([
    ['gpt-4o-mini', '/v1/chat/completions'],
    ['text-embedding-3-small', '/v1/embeddings'],
    ['rerank-english-v3.0', '/v1/rerank'],
    ['dall-e-3', '/v1/images/generations'],
    ['tts-1', '/v1/audio/speech'],
    ['whisper-1', '/v1/audio/transcriptions'],
    ['omni-moderation-latest', '/v1/moderations'],
  ])('tests %s on %s and passes', async (model, path) => {
    const answer = (await root.get(`/api/channel/test/${id}?model=${model}`)) as unknown as {
      success: boolean;
      message: string;
    };
    expect(answer.success, answer.message).toBe(true);
    expect(mock.requests.map((request) => request.path)).toEqual([path]);
    expect(mock.requests[0]!.headers.authorization).toBe('Bearer sk-test-endpoints');
  });
});
