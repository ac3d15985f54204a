import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { splitWords } from '../text.js';
import { asksForLimit, startVendorServer, type VendorMock, vendorReply } from './vendor-server.js';

export const SPARK_APP_ID = 'spark-app';
const API_SECRET = 'spark-api-secret';
const API_KEY = 'spark-api-key';
export const SPARK_KEY = `${SPARK_APP_ID}|${API_SECRET}|${API_KEY}`;

export interface SparkMock extends VendorMock {
  /** Upgrade requests and the request frame each socket sent. */
  sockets: Array<{ path: string; query: Record<string, string>; frame?: Record<string, unknown> }>;
}

/** Why the handshake's signed URL is refused (status and Spark's message), or null when it is valid. */
function handshakeProblem(req: IncomingMessage, url: URL): { status: number; message: string } | null {
  const date = url.searchParams.get('date') ?? '';
  const host = url.searchParams.get('host') ?? '';
  const origin = Buffer.from(url.searchParams.get('authorization') ?? '', 'base64').toString();
  const fields = Object.fromEntries([...origin.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
  if (!(Math.abs(Date.now() - Date.parse(date)) <= 300_000)) {
    return {
      status: 403,
      message: 'HMAC signature cannot be verified, a valid date or x-date header is required for HMAC Authentication',
    };
  }
  const expected = createHmac('sha256', API_SECRET)
    .update(`host: ${host}\ndate: ${date}\nGET ${url.pathname} HTTP/1.1`)
    .digest('base64');
  const valid =
    host === req.headers.host &&
    fields.api_key === API_KEY &&
    fields.algorithm === 'hmac-sha256' &&
    fields.headers === 'host date request-line' &&
    fields.signature === expected;
  return valid ? null : { status: 401, message: 'HMAC signature does not match' };
}

function refuseUpgrade(socket: Duplex, problem: { status: number; message: string }): void {
  const body = JSON.stringify({ message: problem.message });
  socket.end(
    `HTTP/1.1 ${problem.status} ${problem.status === 401 ? 'Unauthorized' : 'Forbidden'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

const frameHeader = (code: number, message: string, status: number) => ({ code, message, sid: 'cht000mock', status });

/**
 * iFlytek Spark over a real WebSocket at `/{version}/chat` (and `/chat/{name}`): the URL's HMAC signature is checked
 * at the handshake (401 `HMAC signature does not match`, 403 for a stale date); the client sends one request frame
 * and gets one frame per word, `header.status` 0, 1, …, 2, the usage in the last. An unknown app id is refused
 * with code 11200, `[limit]` in the prompt with 11202 (rate limit).
 */
export async function startSparkMock(): Promise<SparkMock> {
  const mock = (await startVendorServer((_request, res) => {
    res.writeHead(404);
    res.end();
  })) as SparkMock;
  mock.sockets = [];
  const sockets = new WebSocketServer({ noServer: true });
  mock.server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'ws://mock.invalid');
    const record: SparkMock['sockets'][number] = { path: url.pathname, query: Object.fromEntries(url.searchParams) };
    mock.sockets.push(record);
    const problem = handshakeProblem(req, url);
    if (problem) return refuseUpgrade(socket, problem);
    sockets.handleUpgrade(req, socket, head, (ws) => {
      ws.once('message', (data) => {
        const frame = JSON.parse(data.toString()) as {
          header?: { app_id?: string };
          parameter?: { chat?: { domain?: string } };
          payload?: { message?: { text?: Array<Record<string, unknown>> } };
        };
        record.frame = frame as Record<string, unknown>;
        const turns = frame.payload?.message?.text ?? [];
        const refuse = (code: number, message: string) => {
          ws.send(JSON.stringify({ header: frameHeader(code, message, 2) }));
          ws.close();
        };
        if (frame.header?.app_id !== SPARK_APP_ID)
          return refuse(11200, '授权错误：该appId没有相关功能的授权 或者 业务量超过限制');
        if (asksForLimit(turns)) return refuse(11202, '授权错误：秒级流控超限。秒级并发超过授权路数限制');
        const reply = vendorReply('xunfei', frame.parameter?.chat?.domain ?? '', turns);
        const { prompt, completion } = reply.usage!;
        const words = splitWords(reply.text);
        words.forEach((word, seq) => {
          const status = seq === words.length - 1 ? 2 : seq === 0 ? 0 : 1;
          const payload: Record<string, unknown> = {
            choices: { status, seq, text: [{ content: word, role: 'assistant', index: 0 }] },
          };
          if (status === 2) {
            payload.usage = {
              text: {
                question_tokens: 4,
                prompt_tokens: prompt,
                completion_tokens: completion,
                total_tokens: prompt + completion,
              },
            };
          }
          ws.send(JSON.stringify({ header: frameHeader(0, 'Success', status), payload }));
        });
        ws.close();
      });
    });
  });
  const close = mock.close;
  mock.close = async () => {
    for (const client of sockets.clients) client.terminate();
    sockets.close();
    await close();
  };
  return mock;
}
