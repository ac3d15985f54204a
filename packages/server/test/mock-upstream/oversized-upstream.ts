import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An upstream whose answers are as large as a test asks, in OpenAI's wire format. The path names the answer and its
 * size in bytes, so a channel whose base URL is `${baseUrl}/<answer>/<bytes>` meets it on every call, whatever path
 * its provider appends. The body is generated as it is sent, respecting backpressure: a 256 MiB answer costs this
 * process no memory, and stops being generated when the gateway stops reading it (`sent` tells how far it got).
 */

const FILLER = Buffer.alloc(64 * 1024, 'x');

function chunk(delta: Record<string, unknown>, finish: string | null = null): string {
  return JSON.stringify({
    id: 'chatcmpl-oversized',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'oversized',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
}

const FIRST_EVENT = `data: ${chunk({ role: 'assistant', content: 'Hello' })}\n\n`;
/**
 * The stream's end carries usage, as OpenAI's does with `include_usage`: without it the gateway would count the
 * filler's tokens itself, and a tokenizer spends seconds on each 100 KB of one repeated letter.
 */
const USAGE = JSON.stringify({
  id: 'chatcmpl-oversized',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'oversized',
  choices: [],
  usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 },
});
const LAST_EVENTS = `data: ${chunk({}, 'stop')}\n\ndata: ${USAGE}\n\ndata: [DONE]\n\n`;

/** A record of `bytes` bytes in all: `head`, then filler, then `tail`. */
interface Filled {
  head: string;
  tail: string;
}

const COMPLETION: Filled = {
  head: '{"id":"chatcmpl-oversized","object":"chat.completion","created":1,"model":"oversized","choices":[{"index":0,"message":{"role":"assistant","content":"',
  tail: '"},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":20,"total_tokens":30}}',
};
/** A stream event whose content delta is the filler. */
const CONTENT_EVENT: Filled = (() => {
  const [head, tail] = `data: ${chunk({ content: '@' })}\n\n`.split('@') as [string, string];
  return { head, tail };
})();

export interface OversizedAnswer {
  status: number;
  contentType: string;
  /** What goes before the filled record (whole events). */
  before?: string;
  /** The filled record; none for an endless line, which is all filler. */
  filled?: Filled;
  after?: string;
}

export const ANSWERS = {
  /** A chat completion whose content makes the body `bytes` long. */
  json: { status: 200, contentType: 'application/json', filled: COMPLETION },
  /** An error whose message makes the body `bytes` long. */
  'error-json': {
    status: 500,
    contentType: 'application/json',
    filled: { head: '{"error":{"type":"server_error","code":null,"message":"', tail: '"}}' },
  },
  /** A stream whose first event is `bytes` long. */
  'first-event': {
    status: 200,
    contentType: 'text/event-stream',
    filled: CONTENT_EVENT,
    after: LAST_EVENTS,
  },
  /** A stream that begins as usual, then sends an event `bytes` long. */
  'later-event': {
    status: 200,
    contentType: 'text/event-stream',
    before: FIRST_EVENT,
    filled: CONTENT_EVENT,
    after: LAST_EVENTS,
  },
  /** An event stream of `bytes` without a single line end (a proxy's binary, a runaway line). */
  'endless-line': { status: 200, contentType: 'text/event-stream' },
  /** Speech audio of `bytes`, streamed through by the gateway however long. */
  audio: { status: 200, contentType: 'audio/mpeg' },
} satisfies Record<string, OversizedAnswer>;

export type AnswerName = keyof typeof ANSWERS;

export interface OversizedUpstream {
  baseUrl: string;
  /** Bytes of the filled record each request got before it ended or the gateway stopped reading, in arrival order. */
  sent: number[];
  close(): Promise<void>;
}

/** Writes `bytes` of `answer`, waiting for the reader between chunks; resolves with the bytes that left. */
async function writeAnswer(res: ServerResponse, answer: OversizedAnswer, bytes: number): Promise<number> {
  const head = answer.filled?.head ?? '';
  const tail = answer.filled?.tail ?? '';
  res.writeHead(answer.status, { 'content-type': answer.contentType });
  if (answer.before) res.write(answer.before);
  res.write(head);
  let sent = Buffer.byteLength(head);
  const fill = bytes - sent - Buffer.byteLength(tail);
  for (let left = fill; left > 0 && !res.destroyed; ) {
    const piece = left >= FILLER.length ? FILLER : FILLER.subarray(0, left);
    left -= piece.length;
    sent += piece.length;
    if (!res.write(piece)) {
      await new Promise<void>((resume) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resume();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
  }
  if (res.destroyed) return sent;
  res.end(`${tail}${answer.after ?? ''}`);
  return sent + Buffer.byteLength(tail);
}

export async function startOversizedUpstream(): Promise<OversizedUpstream> {
  const sent: number[] = [];
  const server = createServer((req, res) => {
    const [, name, size] = (req.url ?? '').split('/');
    const answer = (ANSWERS as Record<string, OversizedAnswer>)[name ?? ''];
    const bytes = Number(size);
    const index = sent.push(0) - 1;
    // The request is read whole first, as a real upstream does before it answers.
    req.resume();
    req.on('end', () => {
      if (!answer || !Number.isInteger(bytes)) return void res.writeHead(404).end();
      writeAnswer(res, answer, bytes).then(
        (count) => (sent[index] = count),
        () => res.destroy(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sent,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
