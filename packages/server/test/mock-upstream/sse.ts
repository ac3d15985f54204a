import type { OutgoingHttpHeaders } from 'node:http';
import { type Exchange, writeFlushed } from './exchange.js';

/** One streamed record. `content` marks the text-carrying records that reset-after-chunks counts. */
export interface StreamEvent {
  event?: string;
  data: unknown;
  content?: boolean;
}

export interface StreamOptions {
  /** `sse`: `event:`/`data:` lines and a blank line; `json-array`: Gemini's stream without `alt=sse`. */
  framing?: 'sse' | 'json-array';
  chunkDelayMs?: number;
  headers?: OutgoingHttpHeaders;
}

function serialise(data: unknown): string {
  return typeof data === 'string' ? data : JSON.stringify(data);
}

function frameSse(event: StreamEvent, dataText: string): string {
  return `${event.event ? `event: ${event.event}\n` : ''}data: ${dataText}\n\n`;
}

/**
 * Send a stream, applying the behaviour on the way:
 * - `reset-after-chunks`: N content records go out (plus the preamble before them), then the socket is destroyed,
 *   so the client never sees the end marker or the usage record;
 * - `malformed`: the first content record is cut in half (a broken `data:` line) and the response then ends.
 */
export async function answerStream(ex: Exchange, events: StreamEvent[], options: StreamOptions = {}): Promise<void> {
  if (ex.closed()) return;
  const framing = options.framing ?? 'sse';
  ex.res.writeHead(200, {
    'content-type': framing === 'sse' ? 'text/event-stream; charset=utf-8' : 'application/json; charset=UTF-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...options.headers,
  });
  ex.res.flushHeaders();
  const behaviour = ex.behaviour;
  const resetAfter = behaviour.kind === 'reset-after-chunks' ? Math.max(0, behaviour.chunks) : Number.POSITIVE_INFINITY;
  let contentSent = 0;
  let written = 0;
  if (framing === 'json-array') await writeFlushed(ex, '[');
  for (const event of events) {
    if (ex.closed()) return;
    // Cut right after the Nth content record: nothing else (no end marker, no usage) gets out. With N = 0 the
    // preamble before the first content record still goes out.
    if (contentSent >= resetAfter && (event.content || contentSent > 0)) break;
    if (written > 0 && options.chunkDelayMs) await ex.sleep(options.chunkDelayMs);
    if (ex.closed()) return;
    const dataText = serialise(event.data);
    const separator = framing === 'json-array' && written > 0 ? ',\r\n' : '';
    if (event.content && behaviour.kind === 'malformed') {
      const broken = dataText.slice(0, Math.floor(dataText.length / 2));
      await writeFlushed(ex, framing === 'sse' ? frameSse(event, broken) : separator + broken);
      ex.res.end();
      return;
    }
    await writeFlushed(ex, framing === 'sse' ? frameSse(event, dataText) : separator + dataText);
    written += 1;
    if (event.content) contentSent += 1;
  }
  if (behaviour.kind === 'reset-after-chunks') {
    ex.reset();
    return;
  }
  if (ex.closed()) return;
  ex.res.end(framing === 'json-array' ? ']' : undefined);
}
