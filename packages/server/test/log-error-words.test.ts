import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LogType, translate } from '@gateway/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logView } from '../src/api/log.js';
import type { LogRow } from '../src/db/schema.js';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { addChannel, addToken, flushBilling, priceModels } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { closedPort } from './mock-upstream/broken-upstream.js';

// A failed call's log row is read by people in other languages than the caller's: the row keeps the words' code and
// params, and each reader gets the text in their own language. An upstream's own message is quoted as it came.

const OWN_MESSAGE = 'This model cannot take that many tokens at once';

/** Answers every call with the failure its path names. */
async function failingUpstream(): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url?.startsWith('/plain-500')) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('proxy broke');
      } else if (req.url?.startsWith('/own-message')) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            error: { message: OWN_MESSAGE, type: 'invalid_request_error', code: 'context_length_exceeded' },
          }),
        );
      } else {
        res.writeHead(404).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Row = { content: string; other: string; model_name: string };

describe('error log rows are read in the reader language', () => {
  let server: TestServer;
  let upstream: Awaited<ReturnType<typeof failingUpstream>>;
  let root: ApiClient;
  let key: string;

  beforeAll(async () => {
    upstream = await failingUpstream();
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
    const refused = await closedPort();
    await addChannel(root, {
      type: 1,
      key: 'sk-words-key-123456',
      base_url: `${upstream.baseUrl}/plain-500`,
      models: 'w-status',
    });
    await addChannel(root, {
      type: 1,
      key: 'sk-words-key-123456',
      base_url: `${upstream.baseUrl}/own-message`,
      models: 'w-own',
    });
    await addChannel(root, {
      type: 1,
      key: 'sk-words-key-123456',
      base_url: `http://127.0.0.1:${refused}`,
      models: 'w-down',
    });
    await priceModels(server, root, { 'w-status': 1, 'w-own': 1, 'w-down': 1 });
    key = await addToken(root, { name: 'words', remain_quota: 1_000_000 });
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  const call = async (model: string, language?: string) => {
    const answer = await fetch(`${server.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${key}`,
        ...(language ? { 'accept-language': language } : {}),
      },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
    });
    return { status: answer.status, json: (await answer.json()) as { error: { message: string } } };
  };

  /** The admin's rows of one model, read with the given Accept-Language. */
  const rowOf = async (model: string, language: string, path = '/api/log/') => {
    await flushBilling(server);
    const rows = await root.get<{ items: Row[] }>(`${path}?type=${LogType.Error}&p=1&page_size=100`, {
      'accept-language': language,
    });
    expect(rows.success, rows.message).toBe(true);
    const row = rows.data.items.find((item) => item.model_name === model);
    expect(row, model).toBeDefined();
    return { content: row!.content, other: JSON.parse(row!.other) as Record<string, unknown> };
  };

  it('a status error a Chinese caller read in Chinese is read by a French admin in French, by an English one in English', async () => {
    const answer = await call('w-status', 'zh');
    expect(answer.status).toBe(500);
    const zh = translate('relay_upstream_status', 'zh', { status: 500 });
    expect(answer.json.error.message).toContain(zh);

    const fr = await rowOf('w-status', 'fr');
    expect(fr.content).toBe(translate('relay_upstream_status', 'fr', { status: 500 }));
    expect(fr.other.message_code).toBe('relay_upstream_status');
    expect(fr.other.message_params).toEqual({ status: 500 });
    expect((await rowOf('w-status', 'en')).content).toBe(translate('relay_upstream_status', 'en', { status: 500 }));
    // The stored text stays the caller's: what old clients and the family's console read.
    const stored = await server.ctx.db.kysely
      .selectFrom('logs')
      .select('content')
      .where('model_name', '=', 'w-status')
      .where('type', '=', LogType.Error)
      .executeTakeFirstOrThrow();
    expect(stored.content).toBe(zh);
  });

  it('an unreachable upstream, asked without a language (English), is read in French in the caller’s own log too', async () => {
    const answer = await call('w-down');
    expect(answer.status).toBe(502);
    expect(answer.json.error.message).toContain(translate('relay_upstream_unavailable', 'en'));
    const own = await rowOf('w-down', 'fr', '/api/log/self/');
    expect(own.content).toBe(translate('relay_upstream_unavailable', 'fr'));
    expect(own.other.message_code).toBe('relay_upstream_unavailable');
    expect(own.other.admin_info).toBeUndefined();
  });

  it('an upstream that explained itself in its own JSON is quoted as it said it, in every reader language', async () => {
    const answer = await call('w-own', 'zh');
    expect(answer.status).toBe(400);
    expect(answer.json.error.message).toContain(OWN_MESSAGE);
    for (const language of ['fr', 'en', 'zh']) {
      const row = await rowOf('w-own', language);
      expect(row.content).toBe(OWN_MESSAGE);
      expect(row.other.message_code).toBeUndefined();
      expect(row.other.error_code).toBe('context_length_exceeded');
    }
  });
});

describe('logView renders stored words', () => {
  const row = (content: string, other: Record<string, unknown>): LogRow =>
    ({
      id: 1,
      user_id: 1,
      created_at: 0,
      type: LogType.Error,
      content,
      username: 'u',
      token_name: 't',
      model_name: 'm',
      quota: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
      use_time: 0,
      is_stream: 0,
      channel_id: 1,
      channel_name: 'c',
      token_id: 1,
      group: 'default',
      ip: '',
      request_id: 'r',
      other: JSON.stringify(other),
    }) as unknown as LogRow;

  it('a body check reason is rendered like the caller got it: translated where known, else the whole text in English', () => {
    const known = row('x', { message_code: 'relay_body_invalid', message_params: { reason: 'model is required' } });
    expect(logView(known, true, 'zh').content).toBe(
      translate('relay_body_invalid', 'zh', { reason: '缺少 model 字段' }),
    );
    const unknown = row('x', { message_code: 'relay_body_invalid', message_params: { reason: 'tools[3] is odd' } });
    expect(logView(unknown, true, 'fr').content).toBe(
      translate('relay_body_invalid', 'en', { reason: 'tools[3] is odd' }),
    );
  });

  it('a code this server does not know keeps the stored text; a row without words keeps its content', () => {
    expect(logView(row('stored text', { message_code: 'from_a_newer_server' }), true, 'fr').content).toBe(
      'stored text',
    );
    expect(logView(row('plain', { status_code: 500 }), false, 'fr').content).toBe('plain');
  });
});
