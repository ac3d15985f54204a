import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseBody, readBody } from '../body.js';
import { buildReply, contentText, countWords, type Reply, splitWords } from '../text.js';

/** One request a vendor mock received, as a test asserts on it. */
export interface VendorRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** Lower-cased names. */
  headers: Record<string, string>;
  /** Parsed JSON (or the raw text). */
  body: unknown;
  raw: string;
}

export interface VendorMock {
  baseUrl: string;
  requests: VendorRequest[];
  server: Server;
  close(): Promise<void>;
}

/**
 * A small standalone server for one vendor's mock: every request is recorded (body read and parsed) and handed to
 * `handle`. The vendors' mocks share the shared mock's text arithmetic (text.ts): the reply is
 * `Hello from <vendor> mock: <model>`, prompt = words + 3 per message, completion = words of the reply.
 */
export async function startVendorServer(
  handle: (request: VendorRequest, res: ServerResponse, req: IncomingMessage) => void | Promise<void>,
): Promise<VendorMock> {
  const requests: VendorRequest[] = [];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://mock.invalid');
    const bytes = await readBody(req);
    const raw = bytes.toString('utf8');
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const request: VendorRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      // Parsed from the bytes as received: an uploaded file must not pass through a text decoding.
      body: parseBody(bytes, headers['content-type'] ?? 'application/json'),
      raw,
    };
    requests.push(request);
    try {
      await handle(request, res, req);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The mock's reply to a list of `{content}` turns (any casing of the field). */
export function vendorReply(vendor: string, model: string, turns: Array<Record<string, unknown>>): Reply {
  const texts = turns.map((turn) => contentText(turn.content ?? turn.Content));
  const words = texts.reduce((sum, text) => sum + countWords(text), 0);
  return buildReply(vendor, model, { kind: 'ok' }, { words, messages: turns.length });
}

/** Whether any turn asks the mock to refuse for a rate limit (`[limit]` in its text). */
export const asksForLimit = (turns: Array<Record<string, unknown>>) =>
  turns.some((turn) => contentText(turn.content ?? turn.Content).includes('[limit]'));

export function sendJsonBody(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Streams `text` as server-sent events, one word each (`event` gives its data), then ends the response. */
export function streamWords(
  res: ServerResponse,
  text: string,
  event: (word: string, index: number, last: boolean) => unknown,
): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const words = splitWords(text);
  words.forEach((word, index) => {
    res.write(`data: ${JSON.stringify(event(word, index, index === words.length - 1))}\n\n`);
  });
  res.end();
}
