import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { azureRoutes } from './azure.js';
import { balanceRoutes } from './balance.js';
import { BehaviourStore } from './behaviours.js';
import { InvalidJson, parseBody, readBody } from './body.js';
import { claudeRoutes } from './claude.js';
import { type Exchange, sendJson } from './exchange.js';
import { geminiRoutes } from './gemini.js';
import { midjourneyRoutes } from './midjourney.js';
import { ollamaRoutes } from './ollama.js';
import { openaiError, openaiTextRoutes } from './openai.js';
import { openaiMediaRoutes } from './openai-media.js';
import { openaiResponsesRoutes } from './openai-responses.js';
import { resetRealtime, serveRealtime } from './realtime.js';
import { serveResponsesSocket } from './responses-socket.js';
import type { ErrorReply, Route } from './route.js';
import { sunoRoutes } from './suno.js';
import type { MockUpstream, RecordedRequest } from './types.js';

/**
 * Order matters only where providers share a path: Anthropic's and Google's `/v1/models` are recognised by their
 * headers, so they are tried before OpenAI's.
 */
const ROUTES: Route[] = [
  ...claudeRoutes,
  ...geminiRoutes,
  ...azureRoutes,
  ...openaiTextRoutes,
  ...openaiResponsesRoutes,
  ...openaiMediaRoutes,
  ...ollamaRoutes,
  ...balanceRoutes,
  ...midjourneyRoutes,
  ...sunoRoutes,
];

function lowerHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) result[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return result;
}

function findRoute(method: string, path: string, headers: Record<string, string>, query: Record<string, string>) {
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const params = route.match(path, headers, query);
    if (params) return { route, params };
  }
  return null;
}

export async function startMockUpstream(options: { port?: number } = {}): Promise<MockUpstream> {
  const store = new BehaviourStore();
  const requests: RecordedRequest[] = [];
  let open = 0;
  let baseUrl = '';

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    open += 1;
    const url = new URL(req.url ?? '/', 'http://mock.invalid');
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: lowerHeaders(req.headers),
      body: undefined,
      rawText: '',
      receivedAt: Date.now(),
      aborted: false,
    };
    // Recorded on arrival, so concurrent requests keep their arrival order and a hung one is visible at once.
    requests.push(record);

    let closed = false;
    let resetByMock = false;
    const closeWaiters = new Set<() => void>();
    res.on('close', () => {
      open -= 1;
      closed = true;
      // Closed before we finished answering, and not by our own reset: the client went away.
      if (!res.writableEnded && !resetByMock) record.aborted = true;
      for (const wake of closeWaiters) wake();
      closeWaiters.clear();
    });

    const raw = await readBody(req);
    record.rawText = raw.toString('utf8');
    const body = parseBody(raw, req.headers['content-type']);
    record.body = body instanceof InvalidJson ? body.raw : body;
    if (closed) return;

    const ex: Exchange = {
      req,
      res,
      record,
      method: record.method,
      path: record.path,
      query: record.query,
      headers: record.headers,
      body,
      params: {},
      behaviour: { kind: 'ok' },
      baseUrl,
      closed: () => closed,
      sleep: (ms) =>
        new Promise((resolve) => {
          if (closed) return resolve();
          const wake = () => {
            clearTimeout(timer);
            closeWaiters.delete(wake);
            resolve();
          };
          const timer = setTimeout(wake, ms);
          closeWaiters.add(wake);
        }),
      reset: () => {
        resetByMock = true;
        req.socket.destroy();
      },
    };
    const send = (error: ErrorReply) => sendJson(ex, error.status, error.body, error.headers);

    const found = findRoute(record.method, record.path, record.headers, record.query);
    if (!found) {
      send(openaiError({ status: 404, message: `Invalid URL (${record.method} ${record.path})` }));
      return;
    }
    const { route, params } = found;
    ex.params = params;
    // Auth and validation failures do not use up a queued behaviour: the queue scripts well-formed calls.
    const rejected = route.check?.(ex);
    if (rejected) {
      send(rejected);
      return;
    }

    const behaviour = store.next(route.key);
    switch (behaviour.kind) {
      case 'status':
        send(
          route.error({
            status: behaviour.status,
            message: behaviour.message,
            type: behaviour.type,
            code: behaviour.code,
          }),
        );
        return;
      case 'hang':
        // Never answer; the request stays open until the client gives up (or the mock closes).
        return;
      case 'reset-before':
        ex.reset();
        return;
      case 'ok':
        if (behaviour.delayMs) await ex.sleep(behaviour.delayMs);
        break;
      default:
        break;
    }
    if (closed) return;
    ex.behaviour = behaviour;
    await route.handle(ex);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A bug in the mock must show up in the test output, not as a hang.
      console.error('mock upstream failed', error);
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `mock upstream bug: ${String(error)}`, type: 'mock_error' } }));
      } else {
        res.destroy();
      }
    });
  });

  const { mode: responsesSocket, terminate: closeSockets } = serveResponsesSocket(server, () => baseUrl);
  const { mode: realtime, terminate: closeRealtime } = serveRealtime(server);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;

  return {
    baseUrl,
    requests,
    responsesSocket,
    realtime,
    enqueue: (route, ...behaviours) => store.enqueue(route, behaviours),
    setDefault: (route, behaviour) => store.setDefault(route, behaviour),
    reset: () => {
      // Emptied in place: tests may hold the array.
      requests.length = 0;
      store.clear();
      responsesSocket.refuse = false;
      responsesSocket.connections = 0;
      resetRealtime(realtime);
    },
    openRequests: () => open,
    close: async () => {
      closeSockets();
      closeRealtime();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
