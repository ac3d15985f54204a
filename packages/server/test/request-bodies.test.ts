import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pruneRequestBodies } from '../src/jobs/request-body-retention.js';
import { type ApiClient, ROLE_REFUSED, refusal, setupAndLogin, signedInUser } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { addChannel, addToken, priceModels } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

const dialects = await availableDialects();

const LOGGED_CHANNEL_KEY = 'sk-upstream-logged-0123456789';
const PLAIN_CHANNEL_KEY = 'sk-upstream-plain-9876543210';
const VIP_CHANNEL_KEY = 'sk-upstream-vip-5555566666';

interface Bodies {
  request_body: string;
  response_body: string;
  created_at: number;
}

interface Answer {
  requestId: string;
  text: string;
}

/** A tiny PNG-sized payload: 3000 bytes of zeros, base64 (4000 characters). */
const IMAGE_BASE64 = Buffer.alloc(3000).toString('base64');

describe.each(dialects)('request and response bodies on %s', (dialect) => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  let alice: ApiClient;
  let bob: ApiClient;
  let aliceKey: string;
  let bobKey: string;

  /** A chat call over plain HTTP, so the answer can be compared byte for byte with what was stored. */
  const chat = async (key: string, body: Record<string, unknown>): Promise<Answer> => {
    const response = await fetch(`${server.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    return { requestId: response.headers.get('x-oneapi-request-id')!, text };
  };

  /** The admin's log row of a call, found by the request id its answer carried. */
  const logIdOf = async (requestId: string): Promise<number> => {
    const page = await root.get<{ items: Array<{ id: number; request_id: string }> }>('/api/log/?p=1&page_size=100');
    const row = page.data.items.find((item) => item.request_id === requestId);
    if (!row) throw new Error(`no log row for ${requestId}`);
    return row.id;
  };

  const bodiesOf = async (answer: Answer): Promise<Bodies | null> => {
    const result = await root.get<Bodies | null>(`/api/log/${await logIdOf(answer.requestId)}/bodies`);
    expect(result.success).toBe(true);
    return result.data;
  };

  const allRows = async () => {
    await server.ctx.bodyWriter.flush();
    return server.ctx.db.kysely.selectFrom('request_bodies').selectAll().execute();
  };

  const setOption = async (key: string, value: string) => {
    const saved = await root.put('/api/option/', { key, value });
    expect(saved.success, saved.message).toBe(true);
  };

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer(dialect);
    root = await setupAndLogin(server.baseUrl);
    alice = await signedInUser(server.baseUrl, server.ctx.repos, 'alice');
    bob = await signedInUser(server.baseUrl, server.ctx.repos, 'bob', 'vip');
    await server.ctx.repos.users.addQuota(alice.userId!, 10_000_000);
    await server.ctx.repos.users.addQuota(bob.userId!, 10_000_000);
    await priceModels(server, root, { 'm-logged': 1, 'm-plain': 1 });
    const base = { type: 1, base_url: mock.baseUrl };
    await addChannel(root, {
      ...base,
      key: LOGGED_CHANNEL_KEY,
      models: 'm-logged',
      setting: JSON.stringify({ log_bodies: true }),
    });
    await addChannel(root, { ...base, key: PLAIN_CHANNEL_KEY, models: 'm-plain' });
    await addChannel(root, { ...base, key: VIP_CHANNEL_KEY, models: 'm-plain', group: 'vip' });
    aliceKey = await addToken(alice, { unlimited_quota: true });
    bobKey = await addToken(bob, { unlimited_quota: true });
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  it('keeps nothing by default', async () => {
    expect(server.ctx.options.get('LogBodiesGroups')).toBe('[]');
    const answer = await chat(aliceKey, { model: 'm-plain', messages: [{ role: 'user', content: 'hi' }] });
    expect(await bodiesOf(answer)).toBeNull();
    expect(await allRows()).toHaveLength(0);
  });

  it('keeps the bodies of calls through a channel whose setting asks, not through another channel', async () => {
    mock.enqueue('openai.chat', { kind: 'ok', text: 'Bonjour', usage: { prompt: 10, completion: 2 } });
    const request = {
      model: 'm-logged',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in the picture?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${IMAGE_BASE64}` } },
          ],
        },
      ],
    };
    const answer = await chat(aliceKey, request);
    const plain = await chat(aliceKey, { model: 'm-plain', messages: [{ role: 'user', content: 'hi' }] });

    const kept = await bodiesOf(answer);
    // The answer exactly as the client got it; the request as sent, with the image replaced by its size.
    expect(kept?.response_body).toBe(answer.text);
    expect(JSON.parse(answer.text).choices[0].message.content).toBe('Bonjour');
    expect(kept?.request_body).toBe(
      JSON.stringify(request).replace(
        `data:image/png;base64,${IMAGE_BASE64}`,
        '[data:image/png;base64 omitted, 3000 bytes]',
      ),
    );
    expect(await bodiesOf(plain)).toBeNull();
    expect(await allRows()).toHaveLength(1);
  });

  it('keeps the bodies of a group named in LogBodiesGroups, and refuses a list that is not one of names', async () => {
    for (const bad of ['{"vip":true}', '["vip", ""]', 'vip']) {
      const refused = await root.put('/api/option/', { key: 'LogBodiesGroups', value: bad });
      expect(refused.success, bad).toBe(false);
    }
    await setOption('LogBodiesGroups', '["vip"]');
    const before = (await allRows()).length;
    const vip = await chat(bobKey, { model: 'm-plain', messages: [{ role: 'user', content: 'from the vip group' }] });
    const other = await chat(aliceKey, { model: 'm-plain', messages: [{ role: 'user', content: 'from default' }] });
    expect(mock.requests.map((request) => request.headers.authorization)).toEqual([
      `Bearer ${VIP_CHANNEL_KEY}`,
      `Bearer ${PLAIN_CHANNEL_KEY}`,
    ]);
    expect((await bodiesOf(vip))?.request_body).toBe(
      JSON.stringify({ model: 'm-plain', messages: [{ role: 'user', content: 'from the vip group' }] }),
    );
    expect(await bodiesOf(other)).toBeNull();
    expect(await allRows()).toHaveLength(before + 1);
    await setOption('LogBodiesGroups', '[]');
  });

  it('cuts a body longer than LogBodiesMaxBytes at a character boundary, with a marker of its length', async () => {
    await setOption('LogBodiesMaxBytes', '256');
    const request = { model: 'm-logged', messages: [{ role: 'user', content: 'é'.repeat(500) }] };
    const answer = await chat(aliceKey, request);
    const kept = (await bodiesOf(answer))!;
    const full = JSON.stringify(request);
    const marker = `\n…[cut: ${Buffer.byteLength(full)} bytes in all]`;
    expect(kept.request_body.endsWith(marker)).toBe(true);
    const prefix = kept.request_body.slice(0, -marker.length);
    expect(full.startsWith(prefix)).toBe(true);
    // 'é' is two bytes: the cut falls on 256 or one byte short of it, never inside a character.
    expect(Buffer.byteLength(prefix)).toBeGreaterThanOrEqual(255);
    expect(Buffer.byteLength(prefix)).toBeLessThanOrEqual(256);
    await setOption('LogBodiesMaxBytes', '16384');
  });

  it('keeps a streamed answer as the events the client received, and cuts a long one', async () => {
    mock.enqueue('openai.chat', { kind: 'ok', text: 'one two three', usage: { prompt: 5, completion: 3 } });
    const streamed = await chat(aliceKey, {
      model: 'm-logged',
      stream: true,
      messages: [{ role: 'user', content: 'count' }],
    });
    expect(streamed.text).toContain('data: [DONE]');
    expect((await bodiesOf(streamed))?.response_body).toBe(streamed.text);

    await setOption('LogBodiesMaxBytes', '300');
    mock.enqueue('openai.chat', { kind: 'ok', text: 'word '.repeat(200), usage: { prompt: 5, completion: 200 } });
    const long = await chat(aliceKey, { model: 'm-logged', stream: true, messages: [{ role: 'user', content: 'go' }] });
    const kept = (await bodiesOf(long))!.response_body;
    const marker = `\n…[cut: ${Buffer.byteLength(long.text)} bytes in all]`;
    expect(kept).toBe(long.text.slice(0, 300) + marker);
    await setOption('LogBodiesMaxBytes', '16384');
  });

  it('never stores the token key or the channel key, even when the client or the upstream echoes one', async () => {
    mock.enqueue('openai.chat', { kind: 'ok', text: `your key is ${LOGGED_CHANNEL_KEY}` });
    const answer = await chat(aliceKey, {
      model: 'm-logged',
      messages: [{ role: 'user', content: `my key is ${aliceKey}` }],
    });
    expect(answer.text).toContain(LOGGED_CHANNEL_KEY);
    const kept = (await bodiesOf(answer))!;
    expect(kept.request_body).toContain('my key is sk-[redacted]');
    expect(kept.response_body).toContain('your key is [redacted]');
    const everything = JSON.stringify(await allRows());
    for (const secret of [aliceKey.slice(3), bobKey.slice(3), LOGGED_CHANNEL_KEY, PLAIN_CHANNEL_KEY, VIP_CHANNEL_KEY]) {
      expect(everything).not.toContain(secret);
    }
    // Headers are never part of a stored body.
    expect(everything.toLowerCase()).not.toContain('authorization');
  });

  it('refuses the bodies to a non-admin and never shows them on the self log', async () => {
    const answer = await chat(aliceKey, {
      model: 'm-logged',
      messages: [{ role: 'user', content: 'private-prompt-7f3a' }],
    });
    const id = await logIdOf(answer.requestId);
    expect((await bodiesOf(answer))?.request_body).toContain('private-prompt-7f3a');
    expect(refusal(await alice.get(`/api/log/${id}/bodies`))).toEqual(ROLE_REFUSED);
    const own = await alice.get<{ items: unknown[] }>('/api/log/self/?p=1&page_size=100');
    expect(own.data.items.length).toBeGreaterThan(0);
    expect(JSON.stringify(own.data)).not.toContain('private-prompt-7f3a');
    expect(JSON.stringify(own.data)).not.toContain('request_body');
    expect((await root.get('/api/log/abc/bodies')).success).toBe(false);
  });

  it('removes kept bodies after LogBodiesRetentionDays, and together with the logs they belong to', async () => {
    const now = Math.floor(Date.now() / 1000);
    await server.ctx.repos.requestBodies.insertMany([
      { request_id: 'old-one', created_at: now - 3 * 86_400, request_body: '{}', response_body: '{}' },
    ]);
    const count = (await allRows()).length;
    expect(await pruneRequestBodies(server.ctx, now)).toBe(0); // 0 days: kept as long as the logs
    await setOption('LogBodiesRetentionDays', '2');
    expect(await pruneRequestBodies(server.ctx, now)).toBe(1);
    expect(await allRows()).toHaveLength(count - 1);
    await setOption('LogBodiesRetentionDays', '0');

    const answer = await chat(aliceKey, { model: 'm-logged', messages: [{ role: 'user', content: 'bye' }] });
    const id = await logIdOf(answer.requestId);
    const cleared = await root.delete(`/api/log/?target_timestamp=${now + 60}`);
    expect(cleared.success).toBe(true);
    expect(await allRows()).toHaveLength(0);
    expect((await root.get(`/api/log/${id}/bodies`)).data).toBeNull();
    // Keep the SQL dialect honest: the table really is empty, not hidden by the join.
    const raw = await sql<{ n: number }>`select count(*) as n from request_bodies`.execute(server.ctx.db.kysely);
    expect(Number(raw.rows[0]!.n)).toBe(0);
  });
});
