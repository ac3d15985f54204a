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

  // A failed test is remembered in other_info, so the console still shows it (and why) after a reload.
  describe('remembers a failed test', () => {
    const otherInfo = async (channelId: number) => {
      const view = await root.get<{ other_info: string | null; key: string }>(`/api/channel/${channelId}`);
      return JSON.parse(view.data.other_info || '{}') as Record<string, unknown>;
    };
    const test = async (channelId: number) =>
      (await root.get(`/api/channel/test/${channelId}`)) as unknown as { success: boolean; message: string };
    const revoked = () =>
      addChannel(root, { type: 1, key: 'invalid-key', base_url: mock.baseUrl, models: 'gpt-4o-mini' });

    it('stores the reason without the key, and a later passing test clears it', async () => {
      const channelId = await revoked();
      const before = Math.floor(Date.now() / 1000);
      const failed = await test(channelId);
      expect(failed.success).toBe(false);
      // The mock quotes the key it was sent ("Incorrect API key provided: invalid-key"): neither answer shows it.
      expect(failed.message).toContain('Incorrect API key provided');
      expect(failed.message).not.toContain('invalid-key');
      const info = await otherInfo(channelId);
      expect(info.test_failure_reason).toBe(failed.message);
      expect(info.test_failure_time).toBeGreaterThanOrEqual(before);
      expect(JSON.stringify(info)).not.toContain('invalid-key');
      const stored = (await server.ctx.repos.channels.findById(channelId))!;
      expect(stored.response_time).toBe(0);
      expect(stored.test_time).toBeGreaterThanOrEqual(before);

      // The admin fixes the key through the ordinary edit (the whole channel, as the console sends it).
      const current = (await root.get<Record<string, unknown>>(`/api/channel/${channelId}`)).data;
      expect((await root.put('/api/channel/', { ...current, key: 'sk-now-valid' })).success).toBe(true);
      const passed = await test(channelId);
      expect(passed.success, passed.message).toBe(true);
      const after = await otherInfo(channelId);
      expect(after).not.toHaveProperty('test_failure_reason');
      expect(after).not.toHaveProperty('test_failure_time');
    });

    it('bounds a long reason to 500 characters', async () => {
      const channelId = await addChannel(root, {
        type: 1,
        key: 'sk-long-reason',
        base_url: mock.baseUrl,
        models: 'gpt-4o-mini',
      });
      // The upstream's own error message is passed on whole in the answer; only the stored copy is cut.
      mock.enqueue('openai.chat', { kind: 'status', status: 500, message: `overloaded ${'x'.repeat(2000)}` });
      const failed = await test(channelId);
      expect(failed.success).toBe(false);
      const reason = String((await otherInfo(channelId)).test_failure_reason);
      expect(reason.startsWith('overloaded x')).toBe(true);
      expect(reason).toHaveLength(500);
    });

    it('records from the scheduled "test all" run too', async () => {
      const channelId = await revoked();
      await server.ctx.channelTests.idle();
      expect((await root.get('/api/channel/test')).success).toBe(true);
      await server.ctx.channelTests.idle();
      expect(String((await otherInfo(channelId)).test_failure_reason)).toContain('Incorrect API key provided');
    });

    it("keeps an auto-disabled channel's status_reason when a failed test writes its own keys", async () => {
      const channelId = await revoked();
      await server.ctx.channelWriter.setStatus(channelId, 3, 'Your credit balance is too low');
      expect((await test(channelId)).success).toBe(false);
      const info = await otherInfo(channelId);
      expect(info).toMatchObject({ status_reason: 'Your credit balance is too low' });
      expect(info.status_time).toEqual(expect.any(Number));
      expect(String(info.test_failure_reason)).toContain('Incorrect API key provided');

      // A test that disables the channel itself leaves both its auto-disable reason and the test's.
      await root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' });
      try {
        const fresh = await revoked();
        expect((await test(fresh)).success).toBe(false);
        const disabled = await root.get<{ status: number; other_info: string }>(`/api/channel/${fresh}`);
        expect(disabled.data.status).toBe(3);
        const both = JSON.parse(disabled.data.other_info) as Record<string, unknown>;
        expect(String(both.status_reason)).toContain('Incorrect API key provided');
        expect(String(both.test_failure_reason)).toContain('Incorrect API key provided');
        expect(JSON.stringify(both)).not.toContain('invalid-key');
      } finally {
        await root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'false' });
      }
    });
  });
});
