import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An upstream (or whatever stands in front of one: a CDN, a proxy) answering every way an upstream really breaks.
 * The first path segment names the failure, so a channel whose base URL is `${baseUrl}/<failure>` meets it on
 * every call, whatever path its provider appends. The bodies name a host and an address the gateway must never
 * repeat to its caller.
 */
export const UPSTREAM_HOST = 'upstream.internal.example';
export const UPSTREAM_ADDRESS = '10.0.0.7';

const CDN_PAGE = `<!DOCTYPE html><html><head><title>${UPSTREAM_HOST} | 502: Bad gateway</title></head><body>cloudflare</body></html>`;
const FIRST_CHUNK = `data: ${JSON.stringify({
  id: 'chatcmpl-cut',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'cut',
  choices: [{ index: 0, delta: { role: 'assistant', content: 'Hello' }, finish_reason: null }],
})}\n\n`;

/** Resets the connection once `bytes` (possibly none) have left, as a crashed upstream or a dropped link does. */
function cutAfter(res: ServerResponse, bytes?: string): void {
  if (bytes === undefined) res.socket?.destroy();
  else res.write(bytes, () => res.socket?.destroy());
}

export const FAILURES = {
  'cdn-html-502': (res) => res.writeHead(502, { 'content-type': 'text/html' }).end(CDN_PAGE),
  'cdn-html-520': (res) => res.writeHead(520, { 'content-type': 'text/html' }).end(CDN_PAGE),
  redirect: (res) => res.writeHead(301, { location: `https://${UPSTREAM_HOST}/v1/chat/completions` }).end(),
  'plain-text-500': (res) =>
    res.writeHead(500, { 'content-type': 'text/plain' }).end(`proxy error at ${UPSTREAM_HOST}`),
  'json-without-message-500': (res) =>
    res
      .writeHead(500, { 'content-type': 'application/json' })
      .end(JSON.stringify({ detail: `no healthy upstream at ${UPSTREAM_ADDRESS}:8443` })),
  'not-json-200': (res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('OK'),
  'wrong-shape-200': (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"hello":"world"}'),
  'truncated-200': (res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    cutAfter(res, '{"id":"x","choices":[');
  },
  'sse-cut-before-first-event': (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    cutAfter(res, ': keep-alive\n\n');
  },
  'sse-cut-mid-way': (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    cutAfter(res, FIRST_CHUNK);
  },
  'reset-before-answer': (res) => cutAfter(res),
  // Never answers: the gateway's RELAY_TIMEOUT ends the wait.
  'no-answer': () => {},
} satisfies Record<string, (res: ServerResponse) => void>;

export type FailureName = keyof typeof FAILURES;

export interface BrokenUpstream {
  baseUrl: string;
  close(): Promise<void>;
}

export async function startBrokenUpstream(): Promise<BrokenUpstream> {
  const server = createServer((req, res) => {
    const failure = FAILURES[(req.url ?? '').split('/')[1] as FailureName];
    // The request is read whole first: a reset with unread bytes pending would be an RST that loses the answer.
    req.resume();
    req.on('end', () => (failure ? failure(res) : res.writeHead(404).end()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on: connections to it are refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
