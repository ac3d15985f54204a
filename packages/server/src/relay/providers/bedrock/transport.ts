import type { Dispatcher } from 'undici';
import type { OpenOptions } from '../../provider.js';
import { sendUpstream, type UpstreamResponse } from '../../send.js';
import type { RuntimeChannel, UpstreamCall } from '../../types.js';
import { UpstreamBody } from '../../upstream-exchange.js';
import { wholeResponse } from '../refusal-in-body.js';
import { exceptionName, exceptionStatus, refusal } from './errors.js';
import { EventStreamDecoder, type StreamItem, streamItem } from './event-stream.js';
import { bedrockKey } from './key.js';
import { amzDate, sigV4Authorization } from './sigv4.js';

/** How a streamed answer's events become server-sent events for the conveyor's converters. */
type SseOf = (event: Extract<StreamItem, { kind: 'event' }>) => string;

/** ConverseStream: each event as it is, named by its `:event-type` (messageStart, contentBlockDelta…). */
const converseEvent: SseOf = (event) => `event: ${event.type}\ndata: ${oneLine(event.payload.toString('utf8'))}\n\n`;

/**
 * InvokeModelWithResponseStream: each `chunk` carries the model's own event as base64 `bytes` (Claude's SSE event
 * JSON), which goes on as that SSE event.
 */
const invokeChunk: SseOf = (event) => {
  if (event.type !== 'chunk') return '';
  const bytes = (JSON.parse(event.payload.toString('utf8')) as { bytes?: string }).bytes ?? '';
  const json = oneLine(Buffer.from(bytes, 'base64').toString('utf8'));
  let name = '';
  try {
    name = String((JSON.parse(json) as { type?: unknown }).type ?? '');
  } catch {
    // not JSON: passed on without a name, the converter skips it
  }
  return `${name ? `event: ${name}\n` : ''}data: ${json}\n\n`;
};

/** JSON never needs a raw line break (those inside strings are escaped), so one event is one `data:` line. */
const oneLine = (json: string) => json.replace(/[\r\n]/g, '');

function sseOf(url: string): SseOf | null {
  const path = url.split('?')[0]!;
  if (path.endsWith('/converse-stream')) return converseEvent;
  if (path.endsWith('/invoke-with-response-stream')) return invokeChunk;
  return null;
}

/** The call with its credentials: SigV4 over the body as finally sent, or the API key as a bearer token. */
function authorised(call: UpstreamCall, channel: RuntimeChannel, now: Date): UpstreamCall | null {
  const key = bedrockKey(channel.key);
  if (!key) return null;
  if (key.kind === 'api-key') return { ...call, headers: { ...call.headers, authorization: `Bearer ${key.apiKey}` } };
  const url = new URL(call.url);
  const signed: Record<string, string> = {
    'content-type': call.headers['content-type'] ?? 'application/json',
    host: url.host,
    'x-amz-date': amzDate(now),
  };
  const authorization = sigV4Authorization({
    method: call.method,
    path: url.pathname,
    query: url.search.slice(1),
    headers: signed,
    payload: call.body ?? '',
    accessKeyId: key.accessKeyId,
    secretAccessKey: key.secretAccessKey,
    region: key.region,
    service: 'bedrock',
  });
  return { ...call, headers: { ...call.headers, ...signed, authorization } };
}

const BAD_KEY = JSON.stringify({
  message: 'The channel key is not AccessKeyId|SecretAccessKey|Region nor APIKey|Region.',
  __type: 'UnrecognizedClientException',
});

/**
 * Carries out a Bedrock call: signed as it is sent; an AWS error answered with the status its exception means (and
 * named in its body, for `bedrockError`); a streamed answer's binary event stream turned into server-sent events.
 */
export async function openBedrock(call: UpstreamCall, channel: RuntimeChannel, options: OpenOptions) {
  const signed = authorised(call, channel, new Date());
  if (!signed) return wholeResponse(401, BAD_KEY);
  const response = await sendUpstream(signed, options);
  if (response.statusCode < 200 || response.statusCode >= 300) {
    const text = await response.body.text();
    const header = response.headers['x-amzn-errortype'];
    const mapped = refusal(response.statusCode, text, Array.isArray(header) ? header[0] : header);
    return wholeResponse(mapped.status, mapped.text, String(response.headers['content-type'] ?? 'application/json'));
  }
  const sse = sseOf(call.url);
  return sse ? eventStreamAnswer(response, sse) : response;
}

/** The decoded items of an answer body, read incrementally; a corrupt message or a cut-off one throws. */
async function* streamItems(body: UpstreamBody): AsyncGenerator<StreamItem> {
  const decoder = new EventStreamDecoder();
  for await (const chunk of body) {
    for (const message of decoder.push(chunk)) yield streamItem(message);
  }
  if (decoder.pending) throw new Error('Bedrock event stream ended inside a message');
}

function streamError(item: Extract<StreamItem, { kind: 'exception' }>): Error {
  return new Error(`Bedrock stream ${exceptionName(item.type)}: ${item.message}`);
}

/**
 * The event stream as an SSE body. The first item decides the answer: an exception before any event is a refusal
 * with the status it means (so the conveyor retries another channel); after that, an exception breaks the stream
 * off, and the conveyor ends the client's stream with an error event. A slow client pauses the reading.
 */
async function eventStreamAnswer(response: UpstreamResponse, sseOf: SseOf): Promise<UpstreamResponse> {
  const items = streamItems(response.body);
  const first = await items.next();
  const head = first.done ? null : first.value;
  if (head?.kind === 'exception') {
    await items.return(undefined);
    const name = exceptionName(head.type);
    return wholeResponse(exceptionStatus(name, 500), JSON.stringify({ message: head.message, __type: name }));
  }
  const body = new UpstreamBody();
  let paused: { promise: Promise<void>; resume: () => void } | null = null;
  let aborted = false;
  body.controller = {
    pause() {
      if (paused) return;
      let resume = () => {};
      const promise = new Promise<void>((resolve) => {
        resume = resolve;
      });
      paused = { promise, resume };
    },
    resume() {
      const was = paused;
      paused = null;
      was?.resume();
    },
    abort() {
      aborted = true;
      paused?.resume();
      response.body.destroy();
    },
  } as unknown as Dispatcher.DispatchController;
  if (head) body.push(Buffer.from(sseOf(head)));
  void (async () => {
    try {
      if (!head) return body.finish();
      for (;;) {
        while (paused) await (paused as { promise: Promise<void> }).promise;
        if (aborted) return;
        const next = await items.next();
        if (next.done) return body.finish();
        if (next.value.kind === 'exception') {
          await items.return(undefined);
          return body.finish(streamError(next.value));
        }
        const text = sseOf(next.value);
        if (text) body.push(Buffer.from(text));
      }
    } catch (error) {
      body.finish(error instanceof Error ? error : new Error(String(error)));
    }
  })();
  return { statusCode: 200, headers: { 'content-type': 'text/event-stream' }, body };
}
