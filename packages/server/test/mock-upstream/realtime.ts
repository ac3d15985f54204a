import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';

/**
 * OpenAI's Realtime API over WebSocket (`/v1/realtime?model=…`, Azure's `/openai/realtime?api-version=…&deployment=…`):
 * only `REALTIME_KEY` is let in (OpenAI: `Authorization: Bearer`, Azure: `api-key`), anything else is a 401 before the
 * socket. The session speaks the real event protocol: `session.created` on connect, `session.update` →
 * `session.updated`, `conversation.item.create` → `conversation.item.created`, `response.create` →
 * `response.created`, an output item with text, audio and transcript deltas, then `response.done` with the usage
 * queued in `mode.usages` (or `DEFAULT_REALTIME_USAGE`). Event names are the GA ones, or the beta ones when the
 * handshake carried `OpenAI-Beta: realtime=v1`.
 */

export const REALTIME_KEY = 'sk-realtime-upstream';

export interface RealtimeUsageWire {
  total_tokens: number;
  input_tokens: number;
  output_tokens: number;
  input_token_details: { text_tokens: number; audio_tokens: number; cached_tokens: number };
  output_token_details: { text_tokens: number; audio_tokens: number };
}

export const DEFAULT_REALTIME_USAGE: RealtimeUsageWire = {
  total_tokens: 180,
  input_tokens: 100,
  output_tokens: 80,
  input_token_details: { text_tokens: 60, audio_tokens: 40, cached_tokens: 20 },
  output_token_details: { text_tokens: 30, audio_tokens: 50 },
};

export interface RealtimeHandshake {
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
}

export interface RealtimeMode {
  /** Handshakes that were let in, in order. */
  handshakes: RealtimeHandshake[];
  /** Handshakes refused (wrong key). */
  refused: number;
  /** The usage of the next responses, taken in order. */
  usages: RealtimeUsageWire[];
  /** Pause between delta events (a slow response, for a client that leaves mid-way). */
  deltaDelayMs: number;
  /** Deltas per response. */
  deltas: number;
  /** Responses whose `response.done` was sent. */
  done: number;
  /** Close codes the upstream received from its clients (the gateway), in order. */
  closedWith: number[];
  /** Sockets currently open. */
  open: Set<WebSocket>;
}

const PATHS = new Set(['/v1/realtime', '/openai/realtime']);

export function isRealtimePath(url: string | undefined): boolean {
  return PATHS.has((url ?? '').split('?')[0]!);
}

/** Back to the defaults (open sockets stay open and listed). */
export function resetRealtime(mode: RealtimeMode): void {
  Object.assign(mode, { handshakes: [], refused: 0, usages: [], deltaDelayMs: 0, deltas: 3, done: 0, closedWith: [] });
}

export function serveRealtime(server: Server): { mode: RealtimeMode; terminate(): void } {
  const mode = { open: new Set<WebSocket>() } as RealtimeMode;
  resetRealtime(mode);
  const sockets = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!isRealtimePath(request.url)) return;
    const url = new URL(request.url ?? '/', 'http://mock');
    const azure = url.pathname.startsWith('/openai/');
    const credential = azure ? request.headers['api-key'] : request.headers.authorization;
    if (credential !== (azure ? REALTIME_KEY : `Bearer ${REALTIME_KEY}`)) {
      mode.refused += 1;
      const body = JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } });
      socket.end(
        `HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers[name] = value;
      mode.handshakes.push({ path: url.pathname, query: Object.fromEntries(url.searchParams), headers });
      mode.open.add(ws);
      const model = url.searchParams.get('model') ?? url.searchParams.get('deployment') ?? '';
      new RealtimeConversation(ws, mode, model, headers['openai-beta'] === 'realtime=v1').start();
    });
  });
  return {
    mode,
    terminate: () => {
      for (const ws of mode.open) ws.terminate();
      sockets.close();
    },
  };
}

let counter = 0;
const nextId = (prefix: string) => `${prefix}_${(++counter).toString(36).padStart(6, '0')}`;

class RealtimeConversation {
  private session: Record<string, unknown>;
  private responding: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly mode: RealtimeMode,
    model: string,
    private readonly beta: boolean,
  ) {
    this.session = {
      id: nextId('sess'),
      object: 'realtime.session',
      type: 'realtime',
      model,
      output_modalities: ['audio'],
      instructions: '',
    };
  }

  start(): void {
    this.ws.on('close', (code) => {
      this.closed = true;
      this.mode.open.delete(this.ws);
      this.mode.closedWith.push(code);
    });
    this.ws.on('message', (data) => this.received(String(data)));
    this.send({ type: 'session.created', session: this.session });
  }

  private send(event: Record<string, unknown>): void {
    if (!this.closed && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify({ event_id: nextId('event'), ...event }));
    }
  }

  private received(text: string): void {
    let event: { type?: string; session?: Record<string, unknown>; item?: Record<string, unknown> };
    try {
      event = JSON.parse(text) as typeof event;
    } catch {
      this.send({ type: 'error', error: { type: 'invalid_request_error', code: 'invalid_json', message: 'bad JSON' } });
      return;
    }
    if (event.type === 'session.update') {
      this.session = { ...this.session, ...(event.session ?? {}) };
      this.send({ type: 'session.updated', session: this.session });
    } else if (event.type === 'conversation.item.create') {
      const item = { id: nextId('item'), object: 'realtime.item', status: 'completed', ...(event.item ?? {}) };
      this.send({ type: 'conversation.item.created', previous_item_id: null, item });
    } else if (event.type === 'response.create') {
      this.responding = this.responding.then(() => this.respond());
    } else {
      this.send({
        type: 'error',
        error: { type: 'invalid_request_error', code: 'unknown_event', message: `unknown event ${event.type}` },
      });
    }
  }

  private async respond(): Promise<void> {
    const usage = this.mode.usages.shift() ?? DEFAULT_REALTIME_USAGE;
    const id = nextId('resp');
    const itemId = nextId('item');
    const response = { id, object: 'realtime.response', status: 'in_progress', output: [], usage: null };
    this.send({ type: 'response.created', response });
    this.send({
      type: 'response.output_item.added',
      response_id: id,
      output_index: 0,
      item: {
        id: itemId,
        object: 'realtime.item',
        type: 'message',
        role: 'assistant',
        status: 'in_progress',
        content: [],
      },
    });
    const names = this.beta
      ? { transcript: 'response.audio_transcript.delta', audio: 'response.audio.delta', text: 'response.text.delta' }
      : {
          transcript: 'response.output_audio_transcript.delta',
          audio: 'response.output_audio.delta',
          text: 'response.output_text.delta',
        };
    const where = { response_id: id, item_id: itemId, output_index: 0, content_index: 0 };
    for (let index = 0; index < this.mode.deltas; index++) {
      if (this.closed) return;
      this.send({ type: names.transcript, ...where, delta: `word${index} ` });
      this.send({ type: names.audio, ...where, delta: Buffer.from(`pcm${index}`).toString('base64') });
      this.send({ type: names.text, ...where, delta: `word${index} ` });
      if (this.mode.deltaDelayMs) await new Promise((resolve) => setTimeout(resolve, this.mode.deltaDelayMs));
    }
    if (this.closed) return;
    this.mode.done += 1;
    this.send({
      type: 'response.done',
      response: {
        ...response,
        status: 'completed',
        output: [{ id: itemId, type: 'message', role: 'assistant' }],
        usage,
      },
    });
  }
}
