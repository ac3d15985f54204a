import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cancellation } from '../../src/relay/cancellation.js';
import { sendUpstream } from '../../src/relay/send.js';
import { splitUrl } from '../../src/relay/upstream-exchange.js';

describe('splitUrl', () => {
  it.each([
    ['http://127.0.0.1:8080/v1/chat/completions', 'http://127.0.0.1:8080', '/v1/chat/completions'],
    ['https://api.example.com', 'https://api.example.com', '/'],
    ['https://api.example.com?key=1', 'https://api.example.com', '/?key=1'],
    ['https://h.example/v1beta/models/x:generate?alt=sse', 'https://h.example', '/v1beta/models/x:generate?alt=sse'],
    ['http://[::1]:9000/a#frag', 'http://[::1]:9000', '/a'],
  ])('%s', (url, origin, path) => {
    expect(splitUrl(url)).toEqual({ origin, path });
  });
});

/** A real upstream: each test sets how it answers; `closed` counts sockets the client closed mid-answer. */
let server: Server;
let base = '';
let answer: (res: ServerResponse) => void = (res) => res.end('{}');
let closedEarly = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    res.on('close', () => {
      if (!res.writableFinished) closedEarly++;
    });
    answer(res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const post = (cancellation?: Cancellation) =>
  sendUpstream(
    { method: 'POST', url: `${base}/v1/chat/completions`, headers: { 'content-type': 'application/json' }, body: '{}' },
    { timeoutMs: 5000, cancellation },
  );

describe('sendUpstream', () => {
  it('reads a body larger than the pause threshold whole, with status and headers', async () => {
    const big = 'x'.repeat(300 * 1024);
    answer = (res) => {
      res.writeHead(201, { 'content-type': 'application/json', 'x-upstream': 'yes' });
      res.end(big);
    };
    const response = await post();
    expect(response.statusCode).toBe(201);
    expect(response.headers['x-upstream']).toBe('yes');
    expect(await response.body.text()).toBe(big);
  });

  it('iterates a slow reader through every chunk in order (the socket pauses and resumes)', async () => {
    const parts = Array.from({ length: 40 }, (_, index) => `${index}:${'y'.repeat(8 * 1024)}|`);
    answer = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const part of parts) res.write(part);
      res.end();
    };
    const response = await post();
    let text = '';
    for await (const chunk of response.body) {
      text += chunk.toString();
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(text).toBe(parts.join(''));
  });

  it('leaving the loop early closes the upstream socket', async () => {
    const before = closedEarly;
    answer = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
      // Never ends on its own: only the client closing can finish it.
    };
    const response = await post();
    for await (const _chunk of response.body) break;
    await expect.poll(() => closedEarly).toBe(before + 1);
  });

  it('an abort before the headers rejects, and an abort mid-body makes the reader throw', async () => {
    answer = () => {};
    const early = new Cancellation();
    const pending = post(early);
    setTimeout(() => early.abort(), 20);
    await expect(pending).rejects.toThrow();

    answer = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
    };
    const late = new Cancellation();
    const response = await post(late);
    const reading = (async () => {
      for await (const _chunk of response.body) late.abort();
    })();
    await expect(reading).rejects.toThrow();
  });

  it('a cancellation aborted before the call starts stops it at once', async () => {
    answer = (res) => res.end('{}');
    const gone = new Cancellation();
    gone.abort();
    await expect(post(gone)).rejects.toThrow(/client went away/);
  });

  it('an unreachable upstream rejects', async () => {
    await expect(
      sendUpstream({ method: 'GET', url: 'http://127.0.0.1:1/x', headers: {} }, { timeoutMs: 2000 }),
    ).rejects.toThrow();
  });

  it('dump() reads the rest away and the connection serves the next request', async () => {
    answer = (res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('z'.repeat(200 * 1024));
    };
    await (await post()).body.dump();
    answer = (res) => res.end('{"ok":true}');
    expect(await (await post()).body.text()).toBe('{"ok":true}');
  });
});

describe('Cancellation', () => {
  it('calls each listener once, at once for late ones, and not after removal', () => {
    const cancellation = new Cancellation();
    const calls: string[] = [];
    cancellation.onAbort(() => calls.push('a'));
    const removeB = cancellation.onAbort(() => calls.push('b'));
    removeB();
    cancellation.abort();
    cancellation.abort();
    cancellation.onAbort(() => calls.push('late'));
    expect(calls).toEqual(['a', 'late']);
    expect(cancellation.aborted).toBe(true);
  });
});
