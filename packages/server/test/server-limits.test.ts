import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { capConnectionsPerAddress } from '../src/http/connection-cap.js';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { addChannel, addToken, openaiClient } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { until } from './helpers/wait.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

// The request side of every connection is timed (headers, whole request, idle keep-alive) and one address holds a
// bounded number of connections; the answer side is not, so a long stream is never cut. Timeouts are 1 s here.

/** A raw client connection and what it has received so far. */
interface RawClient {
  socket: Socket;
  received: () => string;
  closed: () => boolean;
}

function rawClient(baseUrl: string): Promise<RawClient> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    let received = '';
    let closed = false;
    const socket = connect(Number(port), hostname, () =>
      resolve({ socket, received: () => received, closed: () => closed }),
    );
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => (received += text));
    // A refused connection may be reset: that is a close like any other here.
    socket.on('error', () => {});
    socket.on('close', () => (closed = true));
    socket.once('error', reject);
  });
}

const STATUS_REQUEST = 'GET /api/status HTTP/1.1\r\nHost: gateway\r\n\r\n';

/** Sends a request and waits for the head of its answer. */
async function ask(client: RawClient, request = STATUS_REQUEST): Promise<void> {
  const before = client.received().length;
  client.socket.write(request);
  await until(() => client.received().length > before && client.received().includes('\r\n\r\n'), {
    what: 'an answer',
  });
}

/** Bounded wait for the server to close the connection: the configured 1 s plus Node's check interval and slack. */
const closedByServer = (client: RawClient) =>
  until(client.closed, { timeoutMs: 5000, what: 'server closes the connection' });

describe('server timeouts on the request side only', () => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  let key: string;

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer('sqlite', {
      HTTP_HEADERS_TIMEOUT: '1',
      HTTP_REQUEST_TIMEOUT: '1',
      HTTP_KEEP_ALIVE_TIMEOUT: '1',
    });
    root = await setupAndLogin(server.baseUrl);
    await addChannel(root, { type: 1, key: 'sk-timeouts', base_url: mock.baseUrl, models: 'gpt-4o' });
    key = await addToken(root, { unlimited_quota: true });
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });

  it('closes a connection that sends part of its headers and then nothing, with a 408', async () => {
    const client = await rawClient(server.baseUrl);
    client.socket.write('GET /api/status HTTP/1.1\r\nHost: gateway\r\n');
    await closedByServer(client);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a connection that never sends a byte', async () => {
    const client = await rawClient(server.baseUrl);
    await closedByServer(client);
    expect(client.received()).not.toMatch(/^HTTP\/1\.1 200/);
  });

  it('closes a relay request whose body stalls part-way, with a 408', async () => {
    const client = await rawClient(server.baseUrl);
    client.socket.write(
      [
        'POST /v1/chat/completions HTTP/1.1',
        'Host: gateway',
        `Authorization: Bearer ${key}`,
        'Content-Type: application/json',
        'Content-Length: 1000',
        '',
        '{"model":"gpt-4o","messages":[{"role":"user","content":"hel',
      ].join('\r\n'),
    );
    await closedByServer(client);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
    // Nothing was sent upstream for the half request.
    expect(mock.requests).toHaveLength(0);
  });

  it('closes a keep-alive connection left idle after its answer', async () => {
    const client = await rawClient(server.baseUrl);
    await ask(client);
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 /);
    await closedByServer(client);
  });

  it('lets a stream run far longer than the request timeout, with pauses longer than every timeout', async () => {
    // Records 1.1 s apart (role, two words, finish, usage): over 4 s of answer against timeouts of 1 s.
    mock.enqueue('openai.chat', { kind: 'ok', text: 'slow answer', chunkDelayMs: 1100 });
    const stream = await openaiClient(server, key).chat.completions.create({
      model: 'gpt-4o',
      stream: true,
      messages: [{ role: 'user', content: 'count slowly' }],
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text.trim()).toBe('slow answer');
  });

  it('lets a whole answer take longer than the request timeout', async () => {
    mock.enqueue('openai.chat', { kind: 'ok', text: 'late but whole', delayMs: 2500 });
    const answer = await openaiClient(server, key).chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'take your time' }],
    });
    expect(answer.choices[0]!.message.content).toBe('late but whole');
  });
});

describe('connections per client address', () => {
  const CAP = 4;
  let server: TestServer;
  const clients: RawClient[] = [];

  beforeAll(async () => {
    server = await startTestServer('sqlite', { MAX_CONNECTIONS_PER_IP: String(CAP) });
  });
  afterAll(async () => {
    for (const client of clients) client.socket.destroy();
    await server?.close();
  });

  it(`serves the first ${CAP} connections from one address and closes the excess at once`, async () => {
    for (let index = 0; index < CAP; index++) {
      const client = await rawClient(server.baseUrl);
      clients.push(client);
      // Answered: the server has counted it.
      await ask(client);
      expect(client.received()).toMatch(/^HTTP\/1\.1 200 /);
    }
    const excess = await rawClient(server.baseUrl);
    clients.push(excess);
    await until(excess.closed, { what: 'the excess connection is closed' });
    expect(excess.received()).toBe('');
    // The first ones keep working.
    for (const client of clients.slice(0, CAP)) {
      await ask(client);
      expect(client.closed()).toBe(false);
    }
  });

  it('takes a new connection once one of them has closed', async () => {
    clients[0]!.socket.destroy();
    // The server learns of the close a moment later: try until a new connection is served.
    await until(
      async () => {
        const client = await rawClient(server.baseUrl);
        clients.push(client);
        client.socket.write(STATUS_REQUEST);
        await until(() => client.closed() || client.received().includes('\r\n\r\n'), { what: 'answer or close' });
        return client.received().startsWith('HTTP/1.1 200 ');
      },
      { what: 'a new connection is served' },
    );
  });
});

describe('the connection cap spares trusted proxies', () => {
  let server: Server;
  let baseUrl: string;

  beforeAll(async () => {
    server = createServer((_request, response) => response.end('ok'));
    capConnectionsPerAddress(server, 1, ['127.0.0.1']);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('lets every connection of a trusted proxy in', async () => {
    const clients = await Promise.all([rawClient(baseUrl), rawClient(baseUrl), rawClient(baseUrl)]);
    for (const client of clients) {
      await ask(client, 'GET / HTTP/1.1\r\nHost: proxy\r\n\r\n');
      expect(client.received()).toMatch(/^HTTP\/1\.1 200 /);
      client.socket.destroy();
    }
  });
});

describe('the limits in the configuration', () => {
  const env = {
    SQLITE_PATH: join(mkdtempSync(join(tmpdir(), 'gw-limits-')), 'one-api.db'),
    SESSION_SECRET: 'x'.repeat(32),
  };

  it('has stated defaults', () => {
    const config = loadConfig(env);
    expect(config.serverLimits).toEqual({
      headersTimeoutMs: 60_000,
      requestTimeoutMs: 300_000,
      keepAliveTimeoutMs: 72_000,
      maxConnectionsPerIp: 256,
    });
    expect(config.answerLimits).toEqual({ wholeBytes: 128 * 1024 * 1024, eventBytes: 64 * 1024 * 1024 });
  });

  it('refuses a headers timeout longer than the whole request may take, and limits of nothing', () => {
    expect(() => loadConfig({ ...env, HTTP_HEADERS_TIMEOUT: '90', HTTP_REQUEST_TIMEOUT: '60' })).toThrow(
      /HTTP_HEADERS_TIMEOUT must not be longer than HTTP_REQUEST_TIMEOUT/,
    );
    expect(() => loadConfig({ ...env, HTTP_KEEP_ALIVE_TIMEOUT: '0' })).toThrow(/HTTP_KEEP_ALIVE_TIMEOUT/);
    expect(() => loadConfig({ ...env, MAX_UPSTREAM_RESPONSE_MB: '0' })).toThrow(/MAX_UPSTREAM_RESPONSE_MB/);
    expect(loadConfig({ ...env, MAX_CONNECTIONS_PER_IP: '0' }).serverLimits.maxConnectionsPerIp).toBe(0);
  });
});
