import { createHash } from 'node:crypto';
import type { Dispatcher } from 'undici';
import WebSocket from 'ws';
import { type SendOptions, sendUpstream, type UpstreamResponse } from '../send.js';
import type { UpstreamCall } from '../types.js';
import { UpstreamBody } from '../upstream-exchange.js';
import { socketSessions } from './socket-sessions.js';

/**
 * A native Responses channel reached over its own WebSocket mode, for requests made on a client's WebSocket: one
 * upstream socket per client session and channel key, opened at the first response and kept for the next ones
 * (closed with the client's socket), each `POST /v1/responses` call sent as a `response.create` event. The answer
 * reads like the HTTP stream it replaces — one server-sent event per message, status 200 — so the conveyor passes it
 * through and reads the usage of `response.completed` as it does for SSE. An `error` event before anything else is
 * the upstream's refusal (its status and body, retried elsewhere like an HTTP one). An upstream that refuses the
 * upgrade, or cannot be reached over WebSocket, is asked over HTTP instead, and for the rest of the session.
 */

/** Events that end a response on the upstream socket. */
const TERMINAL = new Set(['response.completed', 'response.failed', 'response.incomplete', 'error']);

interface UpstreamSocket {
  socket: WebSocket;
  /** The response in progress on it (one at a time). */
  busy: boolean;
}

/** The session's store key for one upstream: the URL and the key it authenticates with (hashed, never kept). */
function storeKey(call: UpstreamCall): string {
  const credential = createHash('sha256')
    .update(JSON.stringify([call.headers.authorization ?? call.headers.Authorization ?? '', call.headers['api-key']]))
    .digest('base64url');
  return `responses-socket ${call.url} ${credential}`;
}

function socketUrl(url: string): string {
  return url.replace(/^http(s?):/i, (_match, secure: string) => `ws${secure}:`);
}

/** Headers of the HTTP call that the handshake carries (not the body's). */
function handshakeHeaders(headers: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'content-type' || lower === 'content-length' || lower === 'accept' || lower === 'host') continue;
    kept[name] = value;
  }
  return kept;
}

function whole(statusCode: number, text: string): UpstreamResponse {
  const body = new UpstreamBody(Number.POSITIVE_INFINITY);
  body.push(Buffer.from(text));
  body.finish();
  return { statusCode, headers: { 'content-type': 'application/json' }, body };
}

/** The `response.create` event for a `POST /v1/responses` body (`stream` and `background` are implicit / absent). */
function createEvent(call: UpstreamCall): string | null {
  try {
    const raw = call.body === undefined ? '' : typeof call.body === 'string' ? call.body : String(call.body);
    const { stream: _stream, background: _background, ...body } = JSON.parse(raw) as Record<string, unknown>;
    return JSON.stringify({ type: 'response.create', ...body });
  } catch {
    return null;
  }
}

/** Carries out a streamed Responses call on the session's upstream socket, or over HTTP when there is none. */
export async function openResponsesSocket(
  call: UpstreamCall,
  sessionId: string,
  options: SendOptions,
): Promise<UpstreamResponse> {
  // Aborted already: the listeners below would be called before they exist.
  if (options.cancellation?.aborted) throw new Error('upstream request cancelled: the client went away');
  const key = storeKey(call);
  const event = createEvent(call);
  const known = socketSessions.get<UpstreamSocket | 'http'>(sessionId, key);
  if (known === 'http' || event === null || !socketSessions.isLive(sessionId)) return sendUpstream(call, options);
  let upstream = known && known.socket.readyState === WebSocket.OPEN && !known.busy ? known : null;
  if (!upstream) {
    const opened = await connect(call, options);
    if (opened === 'refused') {
      socketSessions.keep(sessionId, key, 'http', () => {});
      return sendUpstream(call, options);
    }
    if (opened === 'cancelled' || options.cancellation?.aborted) {
      if (typeof opened !== 'string') opened.terminate();
      throw new Error('upstream request cancelled: the client went away');
    }
    upstream = { socket: opened, busy: false };
    const socket = opened;
    if (!socketSessions.keep(sessionId, key, upstream, () => socket.close(1000))) {
      // The client's session ended while the handshake ran.
      socket.terminate();
      throw new Error('upstream request cancelled: the client went away');
    }
    socket.on('close', () => {
      if (socketSessions.get(sessionId, key) === upstream) socketSessions.forget(sessionId, key);
    });
  }
  return respond(upstream, event, options, () => socketSessions.forget(sessionId, key));
}

/** Opens the upstream socket: the socket, 'refused' (no WebSocket mode there) or 'cancelled' (the client left). */
function connect(call: UpstreamCall, options: SendOptions): Promise<WebSocket | 'refused' | 'cancelled'> {
  return new Promise((resolve) => {
    const sentAt = performance.now();
    const socket = new WebSocket(socketUrl(call.url), {
      headers: handshakeHeaders(call.headers),
      handshakeTimeout: options.timeoutMs,
    });
    let settled = false;
    const settle = (outcome: WebSocket | 'refused' | 'cancelled') => {
      if (settled) return;
      settled = true;
      stopListening?.();
      if (options.clock) options.clock.upstreamMs += performance.now() - sentAt;
      if (outcome !== socket) socket.terminate();
      resolve(outcome);
    };
    const stopListening = options.cancellation?.onAbort(() => settle('cancelled'));
    socket.on('unexpected-response', (request) => {
      request.destroy();
      settle('refused');
    });
    socket.on('open', () => settle(socket));
    // Unreachable over WebSocket: HTTP says why (or succeeds).
    socket.on('error', () => settle('refused'));
  });
}

/** The socket behind an answer body: a slow client pauses it, a departed one closes it. */
function socketControl(socket: WebSocket, dropped: () => void): Dispatcher.DispatchController {
  return {
    pause: () => socket.pause(),
    resume: () => socket.resume(),
    abort: () => {
      dropped();
      socket.terminate();
    },
  } as unknown as Dispatcher.DispatchController;
}

function respond(
  upstream: UpstreamSocket,
  event: string,
  options: SendOptions,
  dropped: () => void,
): Promise<UpstreamResponse> {
  const { socket } = upstream;
  upstream.busy = true;
  return new Promise((resolve, reject) => {
    let body: UpstreamBody | null = null;
    let done = false;
    const sentAt = performance.now();
    let timer = setTimeout(
      () => end(new Error(`no event from the upstream in ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    const stopListening = options.cancellation?.onAbort(() =>
      end(new Error('upstream request cancelled: the client went away')),
    );

    /** Ends this response once: complete (the socket stays for the next one) or broken off (the socket goes). */
    function end(error?: Error, answer?: UpstreamResponse): void {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stopListening?.();
      socket.off('message', onMessage);
      socket.off('close', onClose);
      socket.off('error', onError);
      upstream.busy = false;
      if (error) {
        dropped();
        socket.terminate();
      }
      if (answer) resolve(answer);
      else if (body) body.finish(error);
      else reject(error ?? new Error('the upstream closed its socket without an answer'));
    }

    function onMessage(data: WebSocket.RawData, isBinary: boolean): void {
      if (done || isBinary) return;
      // The wait for the first event is the upstream's; the body's reader counts the later ones.
      if (!body && options.clock) options.clock.upstreamMs += performance.now() - sentAt;
      clearTimeout(timer);
      timer = setTimeout(
        () => end(new Error(`no event from the upstream in ${options.timeoutMs} ms`)),
        options.timeoutMs,
      );
      const text = data.toString();
      let type = '';
      let parsed: { type?: unknown; status?: unknown; error?: unknown } = {};
      try {
        parsed = JSON.parse(text) as typeof parsed;
        type = typeof parsed.type === 'string' ? parsed.type : '';
      } catch {
        end(new Error('the upstream sent a message that is not JSON'));
        return;
      }
      if (!body) {
        if (type === 'error') {
          // A refusal before any output: answered like the HTTP refusal it stands for.
          const status = typeof parsed.status === 'number' ? parsed.status : 400;
          end(undefined, whole(status, JSON.stringify({ error: parsed.error ?? {} })));
          return;
        }
        body = new UpstreamBody();
        body.clock = options.clock;
        body.controller = socketControl(socket, dropped);
        resolve({ statusCode: 200, headers: { 'content-type': 'text/event-stream' }, body });
      }
      // JSON needs no raw line break (those inside strings are escaped), so one message is one `data:` line.
      body.push(Buffer.from(`event: ${type}\ndata: ${text.replace(/[\r\n]/g, '')}\n\n`));
      if (TERMINAL.has(type)) end();
    }
    const onClose = () => end(new Error('the upstream closed its socket before the response ended'));
    const onError = (error: Error) => end(error);
    socket.on('message', onMessage);
    socket.on('close', onClose);
    socket.on('error', onError);
    socket.send(event);
  });
}
