import { LogType } from '@gateway/shared';
import OpenAI from 'openai';
import { ResponsesWS } from 'openai/resources/responses/ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { setupAndLogin, signedInUser } from './helpers/client.js';
import { responseSchemaErrors, streamSchemaErrors } from './helpers/openresponses-schema.js';
import { addChannel, addToken, balances, flushBilling, priceModels } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';
import { CODEX_ACCESS_TOKEN, CODEX_ACCOUNT_ID, CODEX_KEY, startCodexMock } from './mock-upstream/providers/codex.js';
import type { VendorMock } from './mock-upstream/providers/vendor-server.js';
import { serveResponsesSocket } from './mock-upstream/responses-socket.js';
import type { RouteKey } from './mock-upstream/types.js';

// WebSocket mode of the Responses API (GET /v1/responses with an upgrade), driven by the official openai SDK's
// ResponsesWS and a raw `ws` client: on a chat-only channel, a Claude channel and a native Responses channel every
// event validates against the published Open Responses schema, one connection carries several responses (the second
// naming the first as previous_response_id), each response is billed and logged as its own request, errors arrive
// as error events on a connection that stays open, and a client that closes mid-response pays what was produced.

interface Channel {
  name: string;
  type: number;
  model: string;
  route: RouteKey;
}

const CHANNELS: Channel[] = [
  { name: 'a chat-only channel', type: 43, model: 'ws-deepseek-chat', route: 'openai.chat' },
  { name: 'a Claude channel', type: 14, model: 'ws-claude-sonnet-4-5', route: 'claude.messages' },
  { name: 'a native Responses channel', type: 1, model: 'ws-gpt-4o', route: 'openai.responses' },
];

const shell = {
  type: 'function' as const,
  name: 'shell',
  description: 'Runs a command',
  parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  strict: false,
};

const asked = {
  instructions: 'You are a coding agent.',
  input: [{ role: 'user' as const, content: [{ type: 'input_text' as const, text: 'List the files' }] }],
  tools: [shell],
  temperature: 0.3,
  max_output_tokens: 4096,
  reasoning: { effort: 'low' as const, summary: 'auto' as const },
  store: false,
  metadata: { case: 'socket' },
};

type Event = { type: string; sequence_number: number; response?: Record<string, unknown>; [key: string]: unknown };

/** Collects a connection's events; `until` resolves with the events of one response (up to its terminal event). */
function collector(socket: ResponsesWS) {
  const events: Event[] = [];
  const waiters: Array<() => void> = [];
  socket.on('event', (event) => {
    events.push(event as unknown as Event);
    for (const wake of waiters.splice(0)) wake();
  });
  // Error events are read from `events`; without a listener the SDK would throw them.
  socket.on('error', () => {});
  let taken = 0;
  const terminal = new Set(['response.completed', 'response.failed', 'response.incomplete', 'error']);
  return {
    events,
    async next(timeoutMs = 10_000): Promise<Event[]> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const end = events.slice(taken).findIndex((event) => terminal.has(event.type));
        if (end !== -1) {
          const batch = events.slice(taken, taken + end + 1);
          taken += end + 1;
          return batch;
        }
        if (Date.now() > deadline) throw new Error(`no terminal event: ${JSON.stringify(events.slice(taken))}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
  };
}

describe('Responses in WebSocket mode', () => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: Awaited<ReturnType<typeof setupAndLogin>>;
  let key: string;

  const connect = (apiKey = key) =>
    new ResponsesWS(new OpenAI({ apiKey, baseURL: `${server.baseUrl}/v1`, maxRetries: 0 }));

  const logsOf = async (model: string) => {
    await flushBilling(server);
    return (await server.ctx.repos.logs.list({ type: LogType.Consume, modelName: model }, 0, 50)).items;
  };

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
    for (const channel of CHANNELS) {
      await addChannel(root, { type: channel.type, key: 'sk-any', base_url: mock.baseUrl, models: channel.model });
    }
    await priceModels(server, root, Object.fromEntries(CHANNELS.map((channel) => [channel.model, 1])));
    key = await addToken(root, { remain_quota: 10_000_000 });
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  describe.each(CHANNELS)('through $name', (channel) => {
    it('serves two responses on one connection, the second continuing the first, each billed on its own', async () => {
      const before = await logsOf(channel.model);
      mock.enqueue(
        channel.route,
        {
          kind: 'ok',
          reasoning: 'The user wants a listing.',
          text: 'Running it.',
          toolCall: { name: 'shell', arguments: '{"command":"ls"}' },
          usage: { prompt: 40, completion: 12 },
        },
        { kind: 'ok', text: 'There are two files.', usage: { prompt: 60, completion: 5 } },
      );
      const socket = connect();
      const events = collector(socket);
      try {
        socket.send({ type: 'response.create', model: channel.model, ...asked });
        const first = await events.next();
        expect(streamSchemaErrors(first)).toEqual([]);
        expect(first.map((event) => event.sequence_number)).toEqual(first.map((_, index) => index));
        expect(first.filter((event) => event.response).map((event) => event.type)).toEqual([
          'response.created',
          'response.in_progress',
          'response.completed',
        ]);
        const done = first.at(-1)!.response!;
        expect(responseSchemaErrors(done)).toEqual([]);
        expect(done).toMatchObject({ status: 'completed', model: channel.model, metadata: asked.metadata });
        expect(done.usage).toMatchObject({ input_tokens: 40, output_tokens: 12 });
        const call = (done.output as Array<{ type: string; call_id?: string }>).find(
          (item) => item.type === 'function_call',
        )!;
        expect(call).toBeDefined();

        socket.send({
          type: 'response.create',
          model: channel.model,
          ...asked,
          previous_response_id: done.id as string,
          input: [{ type: 'function_call_output', call_id: call.call_id!, output: 'a.txt b.txt' }],
        });
        const second = await events.next();
        expect(streamSchemaErrors(second)).toEqual([]);
        const last = second.at(-1)!;
        expect(last.type).toBe('response.completed');
        expect(responseSchemaErrors(last.response)).toEqual([]);
        expect(last.response).toMatchObject({ status: 'completed', previous_response_id: done.id });
        expect(last.response!.id).not.toBe(done.id);

        // The upstream's second request carried the first turn: the question, the tool call and its output.
        const upstream = JSON.stringify(mock.requests.at(-1)!.body);
        expect(upstream).toContain('List the files');
        expect(upstream).toContain(call.call_id!);
        expect(upstream).toContain('a.txt b.txt');
        if (channel.type === 1) {
          // Native: both responses went over one WebSocket to the upstream, as response.create events.
          expect(mock.requests.map((request) => request.headers['x-mock-transport'])).toEqual([
            'websocket',
            'websocket',
          ]);
          expect(mock.responsesSocket.connections).toBe(1);
        }
      } finally {
        socket.close();
      }
      // Two requests, two usage-log rows with their own request ids and their own usage.
      const logs = (await logsOf(channel.model)).slice(0, -before.length || undefined);
      expect(logs).toHaveLength(2);
      expect(new Set(logs.map((log) => log.request_id)).size).toBe(2);
      expect(logs.map((log) => [log.prompt_tokens, log.completion_tokens]).sort()).toEqual([
        [40, 12],
        [60, 5],
      ]);
    });
  });

  it('runs a response.create sent while another is in progress after it, in order', async () => {
    const model = CHANNELS[0]!.model;
    mock.enqueue(
      'openai.chat',
      { kind: 'ok', text: 'First answer.', chunkDelayMs: 20 },
      { kind: 'ok', text: 'Second answer.' },
    );
    const socket = connect();
    const events = collector(socket);
    try {
      socket.send({ type: 'response.create', model, input: 'one' });
      socket.send({ type: 'response.create', model, input: 'two' });
      const first = await events.next();
      const second = await events.next();
      const text = (batch: Event[]) =>
        batch
          .filter((event) => event.type === 'response.output_text.delta')
          .map((event) => event.delta)
          .join('');
      expect([text(first), text(second)]).toEqual(['First answer.', 'Second answer.']);
      expect(streamSchemaErrors([...first, ...second])).toEqual([]);
    } finally {
      socket.close();
    }
  });

  it('refuses a bad key with HTTP 401 before the upgrade', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const socket = new WebSocket(`${server.baseUrl.replace('http', 'ws')}/v1/responses`, {
        headers: { Authorization: 'Bearer sk-not-a-key' },
      });
      socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.on('open', () => reject(new Error('opened')));
      socket.on('error', () => {});
    });
    expect(status).toBe(401);
  });

  it('takes the key as a subprotocol and answers refusals as error events on a connection that stays open', async () => {
    mock.enqueue('openai.chat', { kind: 'ok', text: 'Hello there.', usage: { prompt: 5, completion: 2 } });
    // As a browser must (it cannot set headers): the key beside the protocol the server is to pick.
    const socket = new WebSocket(`${server.baseUrl.replace('http', 'ws')}/v1/responses`, [
      `openai-insecure-api-key.${key}`,
      'responses',
    ]);
    const messages: Event[] = [];
    socket.on('message', (data) => messages.push(JSON.parse(String(data)) as Event));
    await new Promise((resolve, reject) => {
      socket.on('open', resolve);
      socket.on('error', reject);
    });
    // The key's subprotocol is never echoed back.
    expect(socket.protocol).toBe('responses');
    const until = async (count: number) => {
      await expect.poll(() => messages.filter((message) => isTerminal(message.type)).length).toBe(count);
    };
    socket.send('not json');
    await until(1);
    socket.send(JSON.stringify({ type: 'response.create', model: 'no-such-model', input: 'hi' }));
    await until(2);
    socket.send(JSON.stringify({ type: 'response.create', model: CHANNELS[0]!.model, input: 'hi' }));
    await until(3);
    socket.close();
    const errors = messages.filter((message) => message.type === 'error');
    expect(errors).toHaveLength(2);
    expect(streamSchemaErrors(errors)).toEqual([]);
    expect(errors[0]).toMatchObject({ status: 400, error: { code: 'invalid_request' } });
    expect(errors[1]).toMatchObject({ error: { message: expect.stringContaining('no-such-model') } });
    expect(messages.at(-1)).toMatchObject({ type: 'response.completed', response: { status: 'completed' } });
  });

  it('falls back to an HTTP stream per response when a native upstream refuses the upgrade', async () => {
    const model = CHANNELS[2]!.model;
    mock.responsesSocket.refuse = true;
    mock.enqueue('openai.responses', { kind: 'ok', text: 'One.' }, { kind: 'ok', text: 'Two.' });
    const socket = connect();
    const events = collector(socket);
    try {
      socket.send({ type: 'response.create', model, input: 'first' });
      const first = await events.next();
      socket.send({ type: 'response.create', model, input: 'second' });
      const second = await events.next();
      for (const batch of [first, second]) {
        expect(streamSchemaErrors(batch)).toEqual([]);
        expect(batch.at(-1)!.type).toBe('response.completed');
      }
      expect(mock.requests.map((request) => [request.path, request.headers['x-mock-transport']])).toEqual([
        ['/v1/responses', undefined],
        ['/v1/responses', undefined],
      ]);
      expect(mock.responsesSocket.connections).toBe(0);
    } finally {
      socket.close();
    }
  });

  it("passes a native upstream's refusal on its socket to the client as an error event", async () => {
    const model = CHANNELS[2]!.model;
    mock.enqueue('openai.responses', { kind: 'status', status: 400, message: 'Input is too long', code: 'too_long' });
    mock.enqueue('openai.responses', { kind: 'ok', text: 'Fine.' });
    const socket = connect();
    const events = collector(socket);
    try {
      socket.send({ type: 'response.create', model, input: 'way too long' });
      const [refused] = await events.next();
      expect(refused).toMatchObject({
        type: 'error',
        status: 400,
        error: { message: expect.stringContaining('too long') },
      });
      expect(streamSchemaErrors([refused])).toEqual([]);
      socket.send({ type: 'response.create', model, input: 'short' });
      expect((await events.next()).at(-1)!.type).toBe('response.completed');
      expect(mock.requests.every((request) => request.headers['x-mock-transport'] === 'websocket')).toBe(true);
    } finally {
      socket.close();
    }
  });

  it.each([
    { name: CHANNELS[0]!.name, channel: CHANNELS[0]!, route: 'openai.chat' as RouteKey },
    { name: CHANNELS[2]!.name, channel: CHANNELS[2]!, route: 'openai.responses' as RouteKey },
  ])(
    'bills a response on $name whose client closed mid-stream like a disconnected SSE stream',
    async ({ channel, route }) => {
      const model = channel.model;
      const words = Array.from({ length: 40 }, (_, index) => `word${index}`).join(' ');
      mock.enqueue(route, { kind: 'ok', text: words, chunkDelayMs: 40, usage: 'none' });
      const user = await signedInUser(server.baseUrl, server.ctx.repos, `socket-leaver-${channel.type}`);
      await server.ctx.repos.users.addQuota(user.userId!, 1_000_000);
      const leaverKey = await addToken(user, { name: 'socket', remain_quota: 100_000 });
      const before = await balances(server, user.userId!, leaverKey);
      const socket = connect(leaverKey);
      socket.on('error', () => {});
      let deltas = 0;
      const closed = new Promise<void>((resolve) => {
        socket.on('response.output_text.delta', () => {
          deltas += 1;
          if (deltas === 5) {
            socket.close();
            resolve();
          }
        });
      });
      socket.send({ type: 'response.create', model, input: 'Count to forty' });
      await closed;
      await expect.poll(() => mock.requests[0]?.aborted, { timeout: 5000 }).toBe(true);
      const mine = async () => {
        await flushBilling(server);
        return (
          await server.ctx.repos.logs.list({ type: LogType.Consume, modelName: model, userId: user.userId! }, 0, 5)
        ).items;
      };
      await expect.poll(async () => (await mine()).length, { timeout: 5000 }).toBe(1);
      const log = (await mine())[0]!;
      expect(JSON.parse(log.other!).stream_status).toBe('client_disconnected');
      expect(log.completion_tokens).toBeGreaterThan(0);
      expect(log.completion_tokens).toBeLessThan(40 * 2);
      expect(log.quota).toBe(log.prompt_tokens + log.completion_tokens);
      const after = await balances(server, user.userId!, leaverKey);
      expect(before.token.remain_quota - after.token.remain_quota).toBe(log.quota);
      expect(before.user.quota - after.user.quota).toBe(log.quota);
    },
  );

  it.each(CHANNELS.filter((channel) => channel.type !== 14))(
    'charges nothing on $name when the client closes before the upstream answered',
    async (channel) => {
      mock.enqueue(channel.route, { kind: 'ok', text: 'Too late.', delayMs: 400 });
      const user = await signedInUser(server.baseUrl, server.ctx.repos, `socket-early-${channel.type}`);
      await server.ctx.repos.users.addQuota(user.userId!, 1_000_000);
      const earlyKey = await addToken(user, { name: 'early', remain_quota: 100_000 });
      const before = await balances(server, user.userId!, earlyKey);
      const socket = connect(earlyKey);
      socket.on('error', () => {});
      socket.send({ type: 'response.create', model: channel.model, input: 'Say something' });
      await expect.poll(() => mock.requests.length, { timeout: 5000 }).toBe(1);
      socket.close();
      await expect.poll(() => mock.requests[0]!.aborted, { timeout: 5000 }).toBe(true);
      await expect.poll(() => mock.openRequests(), { timeout: 5000 }).toBe(0);
      const after = await balances(server, user.userId!, earlyKey);
      expect(after.token.remain_quota).toBe(before.token.remain_quota);
      expect(after.user.quota).toBe(before.user.quota);
      await flushBilling(server);
      const logs = await server.ctx.repos.logs.list({ type: LogType.Consume, userId: user.userId! }, 0, 5);
      expect(logs.total).toBe(0);
    },
  );

  describe('through a Codex (ChatGPT) channel', () => {
    let codex: VendorMock;
    let codexSockets: ReturnType<typeof serveResponsesSocket>;
    const model = 'ws-gpt-5-codex';

    beforeAll(async () => {
      codex = await startCodexMock();
      codexSockets = serveResponsesSocket(codex.server, () => codex.baseUrl, '/backend-api/codex/responses');
      await addChannel(root, { type: 57, key: CODEX_KEY, base_url: codex.baseUrl, models: model });
      await priceModels(server, root, { [model]: 1 });
    });
    afterAll(async () => {
      codexSockets?.terminate();
      await codex?.close();
    });

    it('reaches the backend over its WebSocket with the credential headers, the turns carried along', async () => {
      const socket = connect();
      const events = collector(socket);
      try {
        socket.send({ type: 'response.create', model, instructions: 'Be brief.', input: 'Say hello' });
        // The backend's own events pass through as they are (the mock's envelopes are minimal, so the schema is
        // checked on the channels above).
        const first = await events.next();
        expect(first.map((event) => event.type)).toContain('response.output_text.delta');
        const done = first.at(-1)!.response!;
        expect(done).toMatchObject({ status: 'completed' });
        socket.send({
          type: 'response.create',
          model,
          instructions: 'Be brief.',
          previous_response_id: done.id as string,
          input: 'Again',
        });
        const second = await events.next();
        expect(second.at(-1)).toMatchObject({
          type: 'response.completed',
          response: { previous_response_id: done.id },
        });
      } finally {
        socket.close();
      }
      expect(codexSockets.mode.connections).toBe(1);
      expect(codex.requests).toHaveLength(2);
      for (const request of codex.requests) {
        expect(request.headers).toMatchObject({
          'x-mock-transport': 'websocket',
          authorization: `Bearer ${CODEX_ACCESS_TOKEN}`,
          'chatgpt-account-id': CODEX_ACCOUNT_ID,
        });
      }
      // The backend completes with an empty output: the answer's message item still went along with the next turn.
      const carried = JSON.stringify(codex.requests[1]!.body);
      expect(carried).toContain('Say hello');
      expect(carried).toContain(`Hello from codex mock: ${model}`);
      expect(carried).toContain('Again');
      expect(await logsOf(model)).toHaveLength(2);
    });
  });

  it('answers a plain GET /v1/responses with 426', async () => {
    const response = await fetch(`${server.baseUrl}/v1/responses`, { headers: { Authorization: `Bearer ${key}` } });
    expect(response.status).toBe(426);
    expect(response.headers.get('upgrade')).toBe('websocket');
  });
});

function isTerminal(type: string): boolean {
  return type === 'error' || type === 'response.completed' || type === 'response.failed';
}
