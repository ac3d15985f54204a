import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { isRealtimePath } from './realtime.js';

/**
 * The Responses API's WebSocket mode (`GET /v1/responses` with an upgrade, or `path`): each `response.create`
 * message is answered by the mock's own `POST` stream on that path (same behaviours, same recording, with the header
 * `x-mock-transport: websocket`), its events sent as one message each; a refusal is an `error` event with the status.
 * Closing the socket aborts the response in progress. `refuse` makes the upgrade answer 426, as an upstream without
 * WebSocket mode would.
 */
const HANDSHAKE = new Set([
  'host',
  'connection',
  'upgrade',
  'sec-websocket-key',
  'sec-websocket-version',
  'sec-websocket-extensions',
  'sec-websocket-protocol',
]);

export interface ResponsesSocketMode {
  refuse: boolean;
  /** Upgrades accepted so far. */
  connections: number;
}

export function serveResponsesSocket(
  server: Server,
  baseUrl: () => string,
  path = '/v1/responses',
): { mode: ResponsesSocketMode; terminate(): void } {
  const mode: ResponsesSocketMode = { refuse: false, connections: 0 };
  const sockets = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Realtime's own listener (realtime.ts) answers those.
    if (isRealtimePath(request.url)) return;
    if (mode.refuse || (request.url ?? '').split('?')[0] !== path) {
      socket.end('HTTP/1.1 426 Upgrade Required\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => {
      mode.connections += 1;
      // The handshake's own headers (credentials, beta flags) go with every POST made for the socket.
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value !== 'string' || HANDSHAKE.has(name)) continue;
        headers[name] = value;
      }
      let inFlight: AbortController | null = null;
      let chain = Promise.resolve();
      ws.on('close', () => inFlight?.abort());
      ws.on('message', (data) => {
        chain = chain.then(async () => {
          const { type: _type, ...event } = JSON.parse(String(data)) as Record<string, unknown>;
          inFlight = new AbortController();
          try {
            const answer = await fetch(`${baseUrl()}${path}`, {
              method: 'POST',
              headers: { ...headers, 'content-type': 'application/json', 'x-mock-transport': 'websocket' },
              body: JSON.stringify({ ...event, stream: true }),
              signal: inFlight.signal,
            });
            if (answer.status !== 200) {
              // OpenAI's error shape, or the Codex backend's `{"detail": …}`.
              const refusal = (await answer.json()) as { error?: unknown; detail?: unknown };
              const error = refusal.error ?? { type: 'invalid_request_error', message: String(refusal.detail) };
              ws.send(JSON.stringify({ type: 'error', status: answer.status, error }));
              return;
            }
            let pending = '';
            const decoder = new TextDecoder();
            // Read with the stream's reader: the browser journeys type-check this file with the DOM's stream types,
            // which have no async iterator.
            const reader = answer.body!.getReader();
            for (let read = await reader.read(); !read.done; read = await reader.read()) {
              pending += decoder.decode(read.value, { stream: true });
              const blocks = pending.split('\n\n');
              pending = blocks.pop() ?? '';
              for (const block of blocks) {
                const line = block.split('\n').find((entry) => entry.startsWith('data: '));
                if (line && ws.readyState === ws.OPEN) ws.send(line.slice(6));
              }
            }
          } catch {
            // the gateway closed the socket mid-response: the POST was aborted with it
          } finally {
            inFlight = null;
          }
        });
      });
    });
  });
  return {
    mode,
    terminate: () => {
      for (const client of sockets.clients) client.terminate();
    },
  };
}
