import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../src/db/outage.js';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { availableDialects, createTestDatabase, type TestDatabase } from './helpers/databases.js';
import { addChannel, addToken, openaiClient } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { startTcpRelay } from './helpers/tcp-relay.js';
import { gate, until } from './helpers/wait.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

// The shared PostgreSQL and MariaDB servers stay up (other tests use them): the gateway reaches its database
// through a TCP relay this test cuts (every connection dropped, new ones refused) and restores.
const pooledDialects = (await availableDialects()).filter((dialect) => dialect !== 'sqlite');
const MODEL = 'gpt-4o-mini';
const UNAVAILABLE_EN = 'The database is unavailable, try again shortly';
const UNAVAILABLE_ZH = '数据库暂时不可用，请稍后再试';

type Relay = Awaited<ReturnType<typeof startTcpRelay>>;

/** A relay call made by hand, to see the status, the Retry-After header and the body as a client gets them. */
async function call(server: TestServer, path: string, headers: Record<string, string>, body: unknown) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-language': 'en', ...headers },
    body: JSON.stringify(body),
  });
  // The shapes tested here: OpenAI's, Anthropic's and Google's keep their details under `error`; Midjourney's not.
  const answer = (await response.json()) as {
    type?: string;
    error: Record<string, unknown> & { message: string };
    description?: string;
  };
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: answer };
}

const chat = { model: MODEL, messages: [{ role: 'user', content: 'hello' }] };
const claude = { model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hello' }] };
const gemini = { contents: [{ role: 'user', parts: [{ text: 'hello' }] }] };

describe.runIf(pooledDialects.length > 0).each(pooledDialects)('the database out of reach on %s', (dialect) => {
  let database: TestDatabase;
  let relay: Relay;
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  /** Used before the cut: its token and user are in the gateway's memory. */
  let warmKey: string;
  /** Created before the cut and never used: authenticating it needs the database. */
  let coldKey: string;

  beforeAll(async () => {
    mock = await startMockUpstream();
    database = await createTestDatabase(dialect);
    const direct = new URL(database.env.SQL_DSN);
    relay = await startTcpRelay(direct.hostname, Number(direct.port || (dialect === 'postgres' ? 5432 : 3306)));
    const relayed = new URL(direct);
    relayed.port = String(relay.port);
    server = await startTestServer(dialect, { SQL_DSN: relayed.toString() }, database);
    root = await setupAndLogin(server.baseUrl);
    await addChannel(root, { type: 1, key: 'sk-upstream', base_url: mock.baseUrl, models: MODEL });
    await addChannel(root, { type: 14, key: 'sk-claude', base_url: mock.baseUrl, models: MODEL, priority: -1 });
    await addChannel(root, { type: 2, key: 'mj-secret', base_url: mock.baseUrl, models: 'mj_imagine' });
    warmKey = await addToken(root, { unlimited_quota: true });
    coldKey = await addToken(root, { unlimited_quota: true });
    await openaiClient(server, warmKey).chat.completions.create(chat as never);
  });
  afterAll(async () => {
    await relay?.restart();
    await server?.close();
    await relay?.stop();
    await database?.drop();
    await mock?.close();
  });

  it('answers 503 with Retry-After in each route’s shape while the database is unreachable, then serves again', async () => {
    // A transaction holds its connection between two statements when the connection drops: the drop must not end
    // the process (pg reports it on the client, outside any query), and the next statement fails as an outage.
    const resume = gate();
    let begun = false;
    const holding = server.ctx.db.kysely
      .transaction()
      .execute(async (trx) => {
        await sql`select 1`.execute(trx);
        begun = true;
        await resume.held;
        await sql`select 1`.execute(trx);
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    await until(() => begun, { what: 'the transaction begun' });
    await relay.stop();
    // The idle connections hear of the drop as the held one does.
    await until(() => server.ctx.db.pool!().idle === 0, { what: 'the idle connections dropped' });
    resume.open();
    expect(isDatabaseUnavailable(await holding)).toBe(true);

    // OpenAI's shape on /v1/*.
    const openai = await call(server, '/v1/chat/completions', { authorization: `Bearer ${coldKey}` }, chat);
    expect(openai.status).toBe(503);
    expect(openai.retryAfter).toBe('5');
    expect(openai.body.error).toMatchObject({ type: 'new_api_error', code: 'database_unavailable' });
    expect(openai.body.error.message).toContain(UNAVAILABLE_EN);
    // Anthropic's on /v1/messages.
    const messages = await call(server, '/v1/messages', { 'x-api-key': coldKey }, claude);
    expect(messages.status).toBe(503);
    expect(messages.retryAfter).toBe('5');
    expect(messages.body).toMatchObject({ type: 'error', error: { type: 'api_error' } });
    expect(messages.body.error.message).toContain(UNAVAILABLE_EN);
    // Google's on /v1beta.
    const generate = await call(
      server,
      `/v1beta/models/${MODEL}:generateContent`,
      { 'x-goog-api-key': coldKey },
      gemini,
    );
    expect(generate.status).toBe(503);
    expect(generate.retryAfter).toBe('5');
    expect(generate.body.error).toMatchObject({ code: 503, status: 'UNAVAILABLE' });
    expect(generate.body.error.message).toContain(UNAVAILABLE_EN);
    // The console's envelope on /api, in the caller's language; a read and a write alike.
    for (const answer of [await root.get('/api/token/'), await root.post('/api/token/', { name: 'during-outage' })]) {
      expect(answer).toMatchObject({ status: 503, success: false, message: UNAVAILABLE_ZH });
      expect(answer.headers.get('retry-after')).toBe('5');
    }
    // Nothing of the driver's own words (hosts, ports, users) reaches a caller.
    expect(JSON.stringify([openai.body, messages.body, generate.body])).not.toMatch(/ECONN|127\.0\.0\.1|terminated/);
    // A task route answers in its own shape (Midjourney's), for a key already in memory too.
    const imagine = await call(
      server,
      '/mj/submit/imagine',
      { authorization: `Bearer ${warmKey}` },
      { prompt: 'a fox' },
    );
    expect(imagine.status).toBe(503);
    expect(imagine.retryAfter).toBe('5');
    expect(imagine.body).toMatchObject({ result: null, error_code: 'database_unavailable' });
    expect(imagine.body.description).toContain(UNAVAILABLE_EN);
    // A key already in memory needs no database to be served (design: no database round trip on the hot path).
    const served = await openaiClient(server, warmKey).chat.completions.create(chat as never);
    expect(served.choices[0]!.message.content).toBeTruthy();

    await relay.restart();
    // The pools open new connections on the next query: no restart of the gateway.
    const again = await call(server, '/v1/chat/completions', { authorization: `Bearer ${coldKey}` }, chat);
    expect(again.status).toBe(200);
    expect(await root.get('/api/token/')).toMatchObject({ status: 200, success: true });
    expect(await root.post('/api/token/', { name: 'after-outage' })).toMatchObject({ status: 200, success: true });
  });
});
