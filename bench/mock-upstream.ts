/**
 * A deliberately minimal OpenAI-compatible upstream for the benchmark, run as its own process (pinned to the load
 * generator's core) so that its CPU never counts against the gateway. Unlike the test mock it records nothing and
 * builds every answer once at start: whatever it costs per request is the floor that "direct" measures.
 *
 * Usage: node --import tsx bench/mock-upstream.ts --chunks 16 --chunk-delay-ms 0
 * Prints one JSON line `{"port": N}` on stdout once listening on 127.0.0.1.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    chunks: { type: 'string', default: '16' },
    'chunk-delay-ms': { type: 'string', default: '0' },
  },
});
const contentChunks = Math.max(1, Number(values.chunks));
const chunkDelayMs = Math.max(0, Number(values['chunk-delay-ms']));

const MODEL = 'gpt-4o-mini';
const CREATED = 1_700_000_000;
const ID = 'chatcmpl-bench0000000000000000000000';
// Fixed usage so the gateway bills from upstream numbers and never falls back to its tokenizer.
const USAGE = { prompt_tokens: 12, completion_tokens: contentChunks, total_tokens: 12 + contentChunks };

const completionBody = Buffer.from(
  JSON.stringify({
    id: ID,
    object: 'chat.completion',
    created: CREATED,
    model: MODEL,
    system_fingerprint: 'fp_bench',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: 'word '.repeat(contentChunks).trim(), refusal: null },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: USAGE,
  }),
);
const completionHeaders = {
  'content-type': 'application/json',
  'content-length': String(completionBody.length),
  'x-request-id': 'req_bench',
};

function sse(payload: unknown): string {
  return `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`;
}

function chunk(delta: Record<string, unknown>, finishReason: string | null): string {
  return sse({
    id: ID,
    object: 'chat.completion.chunk',
    created: CREATED,
    model: MODEL,
    system_fingerprint: 'fp_bench',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
}

// The records of one stream, in order, as OpenAI sends them: a role-only opener, one record per word, the finish
// record, the usage record (only when asked for with stream_options.include_usage) and [DONE].
const streamOpener = chunk({ role: 'assistant', content: '', refusal: null }, null);
const wordsOf = (count: number) =>
  Array.from({ length: count }, (_, index) => chunk({ content: index === count - 1 ? 'word' : 'word ' }, null));
const streamWords = wordsOf(contentChunks);
/** A request may ask for its own number of content chunks (`"bench_chunks": N`, the burst phase). */
const BENCH_CHUNKS = /"bench_chunks"\s*:\s*(\d+)/;
const wordsByCount = new Map<number, string[]>([[contentChunks, streamWords]]);
function streamWordsFor(body: string): string[] {
  const asked = BENCH_CHUNKS.exec(body);
  const count = asked ? Math.min(1000, Math.max(1, Number(asked[1]))) : contentChunks;
  let words = wordsByCount.get(count);
  if (!words) {
    words = wordsOf(count);
    wordsByCount.set(count, words);
  }
  return words;
}
const streamFinish = chunk({}, 'stop');
const streamUsage = sse({
  id: ID,
  object: 'chat.completion.chunk',
  created: CREATED,
  model: MODEL,
  system_fingerprint: 'fp_bench',
  choices: [],
  usage: USAGE,
});
const streamDone = sse('[DONE]');
const streamHeaders = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };

// Both the benchmark client and the gateway serialise with JSON.stringify, so a byte search is enough and avoids
// parsing every body in the process whose cost is the baseline.
const STREAM_TRUE = /"stream"\s*:\s*true/;
const INCLUDE_USAGE = /"include_usage"\s*:\s*true/;

/**
 * `separate`: each record in a write of its own on the next turn of the event loop, as a fast model's tokens arrive
 * (the burst phase); otherwise all at once (no delay) or `--chunk-delay-ms` apart.
 */
function writeStream(res: ServerResponse, withUsage: boolean, words: string[], separate: boolean): void {
  res.writeHead(200, streamHeaders);
  // writeHead only queues the head: it leaves with this first record, in one packet, as a real upstream's would.
  res.write(streamOpener);
  const tail = [...words, streamFinish, ...(withUsage ? [streamUsage] : []), streamDone];
  if (chunkDelayMs === 0 && !separate) {
    res.end(tail.join(''));
    return;
  }
  const later = (next: () => void) => (separate ? setImmediate(next) : setTimeout(next, chunkDelayMs));
  let next = 0;
  const step = () => {
    if (res.destroyed) return;
    const record = tail[next++]!;
    if (next === tail.length) res.end(record);
    else {
      res.write(record);
      later(step);
    }
  };
  later(step);
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  const parts: Buffer[] = [];
  req.on('data', (part: Buffer) => parts.push(part));
  req.on('end', () => {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"Invalid URL","type":"invalid_request_error","param":null,"code":null}}');
      return;
    }
    const body = Buffer.concat(parts).toString('latin1');
    if (STREAM_TRUE.test(body)) {
      writeStream(res, INCLUDE_USAGE.test(body), streamWordsFor(body), BENCH_CHUNKS.test(body));
    } else {
      res.writeHead(200, completionHeaders);
      res.end(completionBody);
    }
  });
}

const server = createServer({ keepAlive: true }, handle);
// The gateway keeps upstream sockets for 90 s; closing ours earlier would add reconnects to the measurement.
server.keepAliveTimeout = 120_000;
server.headersTimeout = 130_000;
server.listen(Number(values.port), '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ port })}\n`);
});
const stop = () => {
  server.close(() => process.exit(0));
  // Idle keep-alive sockets would otherwise hold close() open until they time out.
  server.closeAllConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
