import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { AnswerBehaviour, RecordedRequest } from './types.js';

/** One request as a provider handler sees it. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  record: RecordedRequest;
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** Parsed body (see body.ts); an InvalidJson marker when a JSON body did not parse. */
  body: unknown;
  /** Path parameters of the matched route (model, deployment…). */
  params: Record<string, string>;
  behaviour: AnswerBehaviour;
  baseUrl: string;
  /** True once the response is closed, normally or because the client went away. */
  closed(): boolean;
  /** Resolves after `ms`, or as soon as the client goes away, so no timer outlives the request. */
  sleep(ms: number): Promise<void>;
  /** Reset the connection from the mock's side (not counted as a client abort). */
  reset(): void;
}

export function sendJson(ex: Exchange, status: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
  if (ex.closed()) return;
  const text = JSON.stringify(body);
  ex.res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  ex.res.end(text);
}

/** Write and wait until the bytes are handed to the kernel, so a reset right after cannot swallow them. */
export function writeFlushed(ex: Exchange, data: string | Buffer): Promise<void> {
  return new Promise((resolve) => {
    if (ex.closed()) return resolve();
    ex.res.write(data, () => setImmediate(resolve));
  });
}

function sendRaw(ex: Exchange, payload: Buffer, contentType: string, headers: OutgoingHttpHeaders): void {
  ex.res.writeHead(200, { 'content-type': contentType, 'content-length': payload.length, ...headers });
  ex.res.end(payload);
}

/**
 * A successful non-streaming answer, bent by the behaviour: `malformed` sends a body that is not valid JSON with a
 * 200 (the gateway must not bill or relay garbage); `reset-after-chunks` promises the full length, sends half,
 * and resets the connection.
 */
export async function answerBytes(
  ex: Exchange,
  payload: Buffer,
  contentType: string,
  headers: OutgoingHttpHeaders = {},
): Promise<void> {
  if (ex.closed()) return;
  if (ex.behaviour.kind === 'malformed') {
    sendRaw(ex, Buffer.from('{"error": false, "data": [{"broken'), 'application/json', headers);
    return;
  }
  if (ex.behaviour.kind === 'reset-after-chunks') {
    ex.res.writeHead(200, { 'content-type': contentType, 'content-length': payload.length, ...headers });
    await writeFlushed(ex, payload.subarray(0, Math.floor(payload.length / 2)));
    ex.reset();
    return;
  }
  sendRaw(ex, payload, contentType, headers);
}

export async function answerJson(ex: Exchange, body: unknown, headers: OutgoingHttpHeaders = {}): Promise<void> {
  const text = JSON.stringify(body);
  if (ex.behaviour.kind === 'malformed') {
    // The first half of the real body: it looks like a cut-off answer of the right format, and never parses.
    if (!ex.closed()) sendRaw(ex, Buffer.from(text.slice(0, Math.floor(text.length / 2))), 'application/json', headers);
    return;
  }
  await answerBytes(ex, Buffer.from(text), 'application/json', headers);
}
