import type { ServerResponse } from 'node:http';
import { createParser } from 'eventsource-parser';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Response as Injected, inject } from 'light-my-request';
import { WebSocket } from 'ws';
import type { AppContext } from '../../context.js';
import { languageOf } from '../../http/envelope.js';
import { authenticateRelay } from '../admission/authenticate.js';
import { RelayError } from '../errors.js';
import type { ResponsesItem } from '../formats/responses/responses-wire.js';
import { SOCKET_SESSION_HEADER, socketSessions } from './socket-sessions.js';
import { acceptUpgradesOn, completeUpgrade, isUpgrade, relaySocketServer } from './upgrade.js';

/**
 * WebSocket mode of the Responses API (`GET /v1/responses` with an upgrade), as newer Codex CLIs and the openai SDK's
 * `ResponsesWS` speak it: the client sends `response.create` events (the body of `POST /v1/responses` without
 * `stream`) and reads the same typed events the SSE stream carries, one response after another on one connection.
 *
 * There is no second relay here. The upgrade request runs Fastify's hooks (per-IP limits, request id) and is
 * authenticated like any relay call before the handshake, so a bad key gets its HTTP 401 and never a socket. Each
 * `response.create` then becomes one `POST /v1/responses` with `stream: true` on the conveyor, made in-process with
 * the upgrade request's headers and address: priced, reserved, limited, routed, billed and logged as its own request,
 * with its own request id. A client that closes the socket mid-response closes that request's answer, which the
 * conveyor bills exactly as a disconnected SSE stream.
 */

const PATH = '/v1/responses';
/** Responses a connection may queue behind the one in progress (each is up to a request body's size). */
const MAX_WAITING = 16;
/** Past this much unsent data, reading the answer waits for the client to take it. */
const SEND_BUFFER_BYTES = 1 << 20;
/** Headers of the handshake that describe the socket, not the requests made on it. */
const HANDSHAKE_HEADERS = new Set([
  'connection',
  'upgrade',
  'content-length',
  'transfer-encoding',
  'host',
  'sec-websocket-key',
  'sec-websocket-version',
  'sec-websocket-extensions',
  'sec-websocket-protocol',
]);

/** Registers the route and its upgrades. */
export function responsesSocketRoutes(app: FastifyInstance, ctx: AppContext): void {
  const sockets = relaySocketServer(ctx);
  const sessions = new Set<ResponsesSocketSession>();
  // Shutting down: each connection finishes the response in progress (the drain), then is closed as going away.
  app.addHook('preClose', async () => {
    await Promise.all([...sessions].map((session) => session.shutdown()));
  });
  acceptUpgradesOn(app, PATH);

  app.get(PATH, async (request: FastifyRequest, reply: FastifyReply) => {
    const lang = languageOf(request);
    if (!isUpgrade(request)) {
      // The key is checked first, as on every relay route; a caller with a good key learns the route wants a socket.
      await authenticateRelay(ctx, request, lang);
      throw upgradeRequired(reply, lang);
    }
    // Refused here, the client gets the HTTP answer and no socket.
    await authenticateRelay(ctx, request, lang);
    completeUpgrade(sockets, request, reply, (socket) => {
      const session = new ResponsesSocketSession(app, socket, request, lang);
      sessions.add(session);
      socket.on('close', () => sessions.delete(session));
      session.start();
    });
    return reply;
  });
}

/** The answer to a plain GET on a WebSocket-only route (after its key was accepted). */
export function upgradeRequired(reply: FastifyReply, lang: ReturnType<typeof languageOf>): RelayError {
  reply.header('Upgrade', 'websocket');
  return RelayError.worded(
    426,
    lang,
    { code: 'relay_bad_request', params: { status: 426 } },
    'invalid_request_error',
    'upgrade_required',
  );
}

/** The turns of the last completed response: what `previous_response_id` names within the connection. */
interface Turn {
  id: string;
  items: unknown[];
}

/** A `response.create` waiting for the one before it (a connection runs its responses one at a time). */
type Pending = Record<string, unknown>;

class ResponsesSocketSession {
  private readonly queue: Pending[] = [];
  private running = false;
  private closed = false;
  private stopping = false;
  /** The answer of the response in progress (its close is the conveyor's disconnect). */
  private answer: ServerResponse | null = null;
  private last: Turn | null = null;
  private readonly headers: Record<string, string>;
  private readonly sessionId: string;

  constructor(
    private readonly app: FastifyInstance,
    private readonly socket: WebSocket,
    private readonly upgrade: FastifyRequest,
    private readonly lang: ReturnType<typeof languageOf>,
  ) {
    this.headers = {};
    for (const [name, value] of Object.entries(upgrade.headers)) {
      if (value === undefined || HANDSHAKE_HEADERS.has(name)) continue;
      this.headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    this.sessionId = socketSessions.open();
    this.headers[SOCKET_SESSION_HEADER] = this.sessionId;
    this.headers['content-type'] = 'application/json';
  }

  start(): void {
    this.socket.on('message', (data, isBinary) => this.received(isBinary ? null : data.toString()));
    this.socket.on('close', () => this.end());
    this.socket.on('error', () => this.end());
  }

  /** Takes no new response, lets the one in progress finish, then closes the socket (1001, going away). */
  async shutdown(): Promise<void> {
    this.queue.length = 0;
    this.stopping = true;
    while (this.running) await new Promise((resolve) => setTimeout(resolve, 20));
    if (this.socket.readyState === WebSocket.OPEN) this.socket.close(1001, 'server shutting down');
    this.end();
  }

  private end(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue.length = 0;
    // The response in progress loses its client: the conveyor aborts the upstream and bills what was produced.
    this.answer?.destroy();
    socketSessions.close(this.sessionId);
  }

  private received(text: string | null): void {
    let event: unknown;
    try {
      event = text === null ? null : JSON.parse(text);
    } catch {
      event = null;
    }
    const body = event as Record<string, unknown> | null;
    if (this.stopping) return;
    if (typeof body !== 'object' || body === null || Array.isArray(body) || body.type !== 'response.create') {
      this.refuse('a JSON response.create event expected');
      return;
    }
    if (this.queue.length >= MAX_WAITING) {
      this.refuse(`at most ${MAX_WAITING} response.create events may wait for the response in progress`);
      return;
    }
    this.queue.push(body);
    if (!this.running) void this.drain();
  }

  private refuse(reason: string): void {
    const error = RelayError.of(400, this.lang, 'relay_body_invalid', { reason }, 'invalid_request');
    this.sendError(400, error.body(String(this.upgrade.id)).error);
  }

  private sendError(status: number, error: { message: string; type?: string; code?: unknown; param?: unknown }): void {
    this.send(
      JSON.stringify({
        type: 'error',
        sequence_number: 0,
        status,
        error: {
          type: error.type ?? 'invalid_request_error',
          code: typeof error.code === 'string' ? error.code : null,
          message: error.message,
          param: typeof error.param === 'string' ? error.param : null,
        },
      }),
    );
  }

  private send(data: string): void {
    if (!this.closed && this.socket.readyState === WebSocket.OPEN) this.socket.send(data);
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (!this.closed && this.queue.length > 0) await this.respond(this.queue.shift()!);
    } finally {
      this.running = false;
    }
  }

  /** One `response.create` as one `POST /v1/responses` stream on the conveyor, its events sent as messages. */
  private async respond(event: Pending): Promise<void> {
    const { type: _type, stream: _stream, background: _background, stream_id: _lane, ...body } = event;
    body.stream = true;
    // A response of this connection named as the previous one: its turns are sent along (the converted channels
    // have no stored conversation, and a native upstream need not have stored it either).
    const previous = typeof body.previous_response_id === 'string' ? body.previous_response_id : undefined;
    const restored = previous !== undefined && this.last?.id === previous ? this.last : null;
    const input = inputItems(body.input);
    if (restored) {
      body.input = [...restored.items, ...input];
      delete body.previous_response_id;
    }
    let answer: ServerResponse | null = null;
    let injected: Injected;
    try {
      injected = await inject(
        (request, response) => {
          answer = response;
          this.answer = response;
          this.app.routing(request, response);
        },
        {
          method: 'POST',
          url: this.upgrade.url.includes('?') ? `${PATH}?${this.upgrade.url.split('?')[1]}` : PATH,
          headers: this.headers,
          payload: JSON.stringify(body),
          remoteAddress: this.upgrade.socket.remoteAddress,
          payloadAsStream: true,
        },
      );
    } catch {
      // The client left before the answer's head: the conveyor has already been told.
      this.answer = null;
      return;
    }
    const stream = injected.stream();
    try {
      const contentType = String(injected.headers['content-type'] ?? '');
      if (injected.statusCode !== 200 || !contentType.startsWith('text/event-stream')) {
        let text = '';
        for await (const chunk of stream) text += String(chunk);
        this.sendError(injected.statusCode, errorOf(text, injected.statusCode));
        return;
      }
      let completed: { id: string; output: unknown[] } | null = null;
      // The items as they were done: an upstream may complete with an empty `output` (ChatGPT's Codex backend).
      const done: unknown[] = [];
      const parser = createParser({
        onEvent: (message) => {
          if (message.data === '[DONE]') return;
          let data = message.data;
          let parsed: Record<string, unknown>;
          try {
            parsed = JSON.parse(data) as Record<string, unknown>;
          } catch {
            return;
          }
          if (typeof parsed.type !== 'string' && typeof parsed.error === 'object' && parsed.error !== null) {
            // The gateway's own mid-stream error (`data: {"error":…}`) as the typed event the socket carries.
            this.sendError(500, parsed.error as { message: string });
            return;
          }
          const response = parsed.response as Record<string, unknown> | undefined;
          if (restored && response && typeof response === 'object') {
            response.previous_response_id = previous;
            data = JSON.stringify(parsed);
          }
          if (parsed.type === 'response.output_item.done' && typeof parsed.item === 'object') {
            done[typeof parsed.output_index === 'number' ? parsed.output_index : done.length] = parsed.item;
          }
          if (parsed.type === 'response.completed' && response && typeof response.id === 'string') {
            const output = Array.isArray(response.output) && response.output.length ? response.output : done;
            completed = { id: response.id, output: output.filter(Boolean) };
          }
          this.send(data);
        },
      });
      for await (const chunk of stream) {
        parser.feed(String(chunk));
        if (this.socket.bufferedAmount > SEND_BUFFER_BYTES) await this.sent();
      }
      const answered = completed as { id: string; output: unknown[] } | null;
      if (answered) {
        this.last = { id: answered.id, items: [...(restored?.items ?? []), ...input, ...answered.output] };
      }
    } catch {
      // The answer was cut (client gone, or the conveyor ended it): nothing more to send for it.
    } finally {
      if (this.answer === answer) this.answer = null;
    }
  }

  /** Resolves once the socket's send buffer is below the mark, or it closed. */
  private async sent(): Promise<void> {
    while (!this.closed && this.socket.bufferedAmount > SEND_BUFFER_BYTES) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

/** `input` as a list of items (a string is one user message). */
function inputItems(input: unknown): ResponsesItem[] {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input } as ResponsesItem];
  return Array.isArray(input) ? (input as ResponsesItem[]) : [];
}

/** The OpenAI-shaped error of a refused request. */
function errorOf(text: string, status: number): { message: string; type?: string; code?: unknown; param?: unknown } {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } };
    if (parsed.error && typeof parsed.error.message === 'string') {
      return parsed.error as { message: string };
    }
  } catch {
    // not JSON: the status says it
  }
  return { message: `HTTP ${status}`, type: status >= 500 ? 'server_error' : 'invalid_request_error' };
}
