import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { conversationKey, sessionOf } from '../src/relay/affinity/conversation-key.js';
import { ClaudeCodeSession, prefixBreak } from './helpers/claude-code-session.js';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { REDIS_URL } from './helpers/databases.js';
import { requireRedisInCi } from './helpers/redis.js';
import { addToken, openaiClient, priceModels } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { until } from './helpers/wait.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';
import type { Behaviour, RecordedRequest } from './mock-upstream/types.js';

// Sticky channels and byte-stable conversion (issue 25, "prompt caches survive the gateway"): Claude Code talks
// Anthropic Messages to the gateway, which serves it from OpenAI-format channels. Two channels of the same model,
// each with three keys and its own upstream, so where each turn went (and with which key) is visible.
const MODEL = 'gpt-5-sticky';

/** A channel of the model on its own mock upstream, with three keys (one per line, single mode). */
async function addMultiKeyChannel(root: ApiClient, mock: MockUpstream, name: string): Promise<number> {
  const created = await root.post<number[]>('/api/channel/', {
    mode: 'single',
    channel: {
      name,
      type: 1,
      group: 'default',
      key: [1, 2, 3].map((index) => `sk-${name}-${index}`).join('\n'),
      base_url: mock.baseUrl,
      models: MODEL,
    },
  });
  if (!created.success) throw new Error(created.message);
  return created.data[0]!;
}

const chats = (mock: MockUpstream) => mock.requests.filter((request) => request.path === '/v1/chat/completions');
const keyOf = (request: RecordedRequest) => request.headers.authorization;
/** Keys are `sk-<channel>-1` … `-3`: the index of the key a request was sent with. */
const keyIndexOf = (request: RecordedRequest) => Number(keyOf(request)!.at(-1)) - 1;

/** Answers alternate between a tool call and text, as a coding agent's turns do. */
function answerTurn(mocks: MockUpstream[], turn: number): void {
  const behaviour: Behaviour =
    turn % 2 === 1
      ? { kind: 'ok', toolCall: { name: 'Read', arguments: `{"file_path":"src/file-${turn}.ts"}` } }
      : { kind: 'ok', text: `Done with turn ${turn}.` };
  for (const mock of mocks) mock.setDefault('openai.chat', behaviour);
}

describe('a Claude Code conversation through OpenAI-format channels', () => {
  let server: TestServer;
  let first: MockUpstream;
  let second: MockUpstream;
  let mocks: MockUpstream[];
  let root: ApiClient;
  let key: string;

  beforeAll(async () => {
    first = await startMockUpstream();
    second = await startMockUpstream();
    mocks = [first, second];
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
    await addMultiKeyChannel(root, first, 'first');
    await addMultiKeyChannel(root, second, 'second');
    await priceModels(server, root, { [MODEL]: 1 });
    key = await addToken(root, { unlimited_quota: true });
  });
  afterAll(async () => {
    await server?.close();
    await first?.close();
    await second?.close();
  });
  beforeEach(() => {
    for (const mock of mocks) mock.reset();
  });

  /** The one upstream that served every request so far, or a failure naming how they were spread. */
  function servingMock(): MockUpstream {
    const used = mocks.filter((mock) => chats(mock).length > 0);
    expect(used, `requests per upstream: ${mocks.map((mock) => chats(mock).length).join(', ')}`).toHaveLength(1);
    return used[0]!;
  }

  it('20 turns: the same channel and key every turn, and the upstream prefix identical byte for byte', async () => {
    const conversation = new ClaudeCodeSession(server.baseUrl, key, MODEL);
    for (let turn = 1; turn <= 20; turn++) {
      answerTurn(mocks, turn);
      const message = await conversation.turn();
      expect(message.stop_reason).toBe(turn % 2 === 1 ? 'tool_use' : 'end_turn');
    }
    const serving = servingMock();
    const sent = chats(serving);
    expect(sent).toHaveLength(20);
    expect(new Set(sent.map(keyOf)).size).toBe(1);
    expect(prefixBreak(sent)).toBeNull();
    // The per-request billing block never reaches the other provider; the instructions do.
    const system = (sent[19]!.body as { messages: Array<{ role: string; content: string }> }).messages[0]!;
    expect(system.role).toBe('system');
    expect(system.content).not.toContain('x-anthropic-billing-header');
    expect(system.content.startsWith("You are Claude Code, Anthropic's official CLI for Claude.\n")).toBe(true);
    // The turns grew the same conversation: 20 user turns, 20 answers, 10 tool results and the system prompt.
    expect((sent[19]!.body as { messages: unknown[] }).messages).toHaveLength(1 + 19 * 2 + 10 + 1);
  });

  it.each([
    ['answers 500', { kind: 'status', status: 500 } as Behaviour],
    ['resets the connection', { kind: 'reset-before' } as Behaviour],
  ])(
    'a channel that %s mid-session: the turn is retried elsewhere and the conversation stays there',
    async (_what, failure) => {
      const conversation = new ClaudeCodeSession(server.baseUrl, key, MODEL);
      for (let turn = 1; turn <= 5; turn++) {
        answerTurn(mocks, turn);
        await conversation.turn();
      }
      const dead = servingMock();
      const healthy = mocks.find((mock) => mock !== dead)!;
      const before = chats(dead).length;
      answerTurn(mocks, 6);
      dead.setDefault('openai.chat', failure);
      // The turn succeeds: stickiness never stands in the way of the retry.
      expect((await conversation.turn()).stop_reason).toBe('end_turn');
      expect(chats(dead)).toHaveLength(before + 1);
      expect(chats(healthy)).toHaveLength(1);
      for (let turn = 7; turn <= 12; turn++) {
        answerTurn(mocks, turn);
        // Back to health halfway: the conversation does not move back (its cache now lives on the other upstream).
        if (turn >= 10) dead.setDefault('openai.chat', null);
        await conversation.turn();
      }
      expect(chats(dead)).toHaveLength(before + 1);
      const moved = chats(healthy);
      expect(moved).toHaveLength(7);
      expect(new Set(moved.map(keyOf)).size).toBe(1);
      expect(prefixBreak(moved)).toBeNull();
    },
  );

  it('off (channel_affinity_setting.enabled = false): turns spread over channels and keys again', async () => {
    expect((await root.put('/api/option/', { key: 'channel_affinity_setting.enabled', value: 'false' })).success).toBe(
      true,
    );
    try {
      const openai = openaiClient(server, key);
      for (let turn = 1; turn <= 20; turn++) {
        await openai.chat.completions.create({
          model: MODEL,
          prompt_cache_key: 'one-conversation',
          messages: [{ role: 'user', content: `turn ${turn}` }],
        });
      }
      // Weighted random between two equal channels: all 20 on one would happen once in 2^19 runs.
      expect(chats(first).length).toBeGreaterThan(0);
      expect(chats(second).length).toBeGreaterThan(0);
      expect(new Set([...chats(first), ...chats(second)].map(keyOf)).size).toBeGreaterThan(2);
    } finally {
      await root.put('/api/option/', { key: 'channel_affinity_setting.enabled', value: 'true' });
    }
  });

  it('keyed per token and model by what agents send: prompt_cache_key, Codex and session headers', async () => {
    const openai = openaiClient(server, key);
    for (const [body, headers] of [
      [{ prompt_cache_key: 'codex-thread' }, {}],
      [{}, { session_id: 'codex-session', conversation_id: 'codex-session' }],
      [{}, { 'X-Session-Id': 'my-agent-session' }],
    ] as const) {
      for (const mock of mocks) mock.reset();
      for (let turn = 1; turn <= 12; turn++) {
        await openai.chat.completions.create(
          { model: MODEL, messages: [{ role: 'user', content: `turn ${turn}` }], ...body },
          { headers },
        );
      }
      const sent = servingMock().requests;
      expect(sent).toHaveLength(12);
      expect(new Set(sent.map(keyOf)).size).toBe(1);
    }
  });

  it('Claude Code with the billing-header option off: the first message changes every turn', async () => {
    await root.put('/api/option/', { key: 'claude.strip_billing_header_enabled', value: 'false' });
    try {
      const conversation = new ClaudeCodeSession(server.baseUrl, key, MODEL);
      for (let turn = 1; turn <= 2; turn++) {
        answerTurn(mocks, 2);
        await conversation.turn();
      }
      const sent = chats(servingMock());
      expect(sent[0]!.rawText).toContain('x-anthropic-billing-header: cc_version=');
      expect(prefixBreak(sent)).toMatch(/^turn 2 differs from turn 1/);
    } finally {
      await root.put('/api/option/', { key: 'claude.strip_billing_header_enabled', value: 'true' });
    }
  });
});

describe('the conversation key', () => {
  it('is read from what each agent sends, first found wins', () => {
    expect(conversationKey({}, { prompt_cache_key: 'pck', metadata: { user_id: 'x' } })).toBe('pck');
    expect(conversationKey({ 'x-claude-code-session-id': 'cc' }, { metadata: { user_id: 'x' } })).toBe('cc');
    expect(conversationKey({ session_id: 's', conversation_id: 'c' }, {})).toBe('s');
    expect(conversationKey({ conversation_id: 'c' }, {})).toBe('c');
    expect(conversationKey({ 'x-session-id': 'mine' }, null)).toBe('mine');
    expect(conversationKey({}, { metadata: { user_id: 'user_ab12_account__session_0f1e' } })).toBe('0f1e');
    expect(conversationKey({}, { messages: [] })).toBeNull();
    expect(conversationKey({}, 'not json')).toBeNull();
    expect(conversationKey({}, { prompt_cache_key: 'k'.repeat(500) })).toHaveLength(200);
  });

  it("finds Claude Code's session in both forms of metadata.user_id", () => {
    expect(sessionOf('user_abc_account_9b2d_session_6c4a-11')).toBe('6c4a-11');
    expect(sessionOf('{"device_id":"d","account_uuid":"a","session_id":"s-1"}')).toBe('s-1');
    expect(sessionOf('someone@example.com')).toBe('someone@example.com');
  });
});

const hasRedis = await requireRedisInCi('the multi-node sticky-channel test is skipped (it runs in CI)');

describe.skipIf(!hasRedis)('sticky channels on two nodes sharing Redis', () => {
  let nodeA: TestServer;
  let nodeB: TestServer;
  let first: MockUpstream;
  let second: MockUpstream;
  let mocks: MockUpstream[];
  let root: ApiClient;
  let key: string;
  const ids = new Map<MockUpstream, number>();

  beforeAll(async () => {
    first = await startMockUpstream();
    second = await startMockUpstream();
    mocks = [first, second];
    const env = { REDIS_CONN_STRING: REDIS_URL, BATCH_UPDATE_INTERVAL: '60' };
    nodeA = await startTestServer('sqlite', env);
    nodeB = await startTestServer('sqlite', env, nodeA.database);
    root = await setupAndLogin(nodeA.baseUrl);
    ids.set(first, await addMultiKeyChannel(root, first, 'first'));
    ids.set(second, await addMultiKeyChannel(root, second, 'second'));
    await priceModels(nodeA, root, { [MODEL]: 1 });
    key = await addToken(root, { unlimited_quota: true });
    await until(() => nodeB.ctx.channelCache.candidates('default', MODEL).length === 2);
    await until(() => nodeB.ctx.options.get('ModelRatio').includes(MODEL));
  });
  afterAll(async () => {
    await nodeB?.close();
    await nodeA?.close();
    await first?.close();
    await second?.close();
  });

  it("node B honours node A's binding, and after a failover on B, A follows B's", async () => {
    const conversation = new ClaudeCodeSession(nodeA.baseUrl, key, MODEL);
    const token = (await nodeA.ctx.repos.tokens.findByKey(key.replace(/^sk-/, '')))!;
    const shared = () => nodeA.ctx.redis!.client.get(`gateway:affinity:${token.id}:${MODEL}:${conversation.session}`);
    answerTurn(mocks, 2);
    await conversation.turn(nodeA.baseUrl);
    const dead = mocks.find((mock) => chats(mock).length > 0)!;
    const healthy = mocks.find((mock) => mock !== dead)!;
    // The binding is written to Redis without waiting; B has nothing of it in its own memory.
    await until(async () => (await shared()) === `${ids.get(dead)}:${keyIndexOf(chats(dead)[0]!)}`);
    expect(nodeB.ctx.channelAffinity.size).toBe(0);
    for (let turn = 2; turn <= 10; turn++) await conversation.turn(nodeB.baseUrl);
    expect(chats(healthy)).toHaveLength(0);
    expect(chats(dead)).toHaveLength(10);
    expect(new Set(chats(dead).map(keyOf)).size).toBe(1);
    expect(prefixBreak(chats(dead))).toBeNull();

    dead.setDefault('openai.chat', { kind: 'status', status: 503 });
    await conversation.turn(nodeB.baseUrl);
    expect(chats(healthy)).toHaveLength(1);
    await until(async () => (await shared())?.startsWith(`${ids.get(healthy)}:`) === true);
    dead.setDefault('openai.chat', null);
    // A still holds the old binding in its memory; Redis has B's, and A follows it.
    for (let turn = 12; turn <= 15; turn++) await conversation.turn(nodeA.baseUrl);
    expect(chats(dead)).toHaveLength(11);
    expect(chats(healthy)).toHaveLength(5);
    expect(new Set(chats(healthy).map(keyOf)).size).toBe(1);
    expect(prefixBreak(chats(healthy))).toBeNull();
  });
});
