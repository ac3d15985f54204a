import type { Dispatcher } from 'undici';
import WebSocket from 'ws';
import type { OpenOptions } from '../../provider.js';
import type { UpstreamResponse } from '../../send.js';
import type { UpstreamCall } from '../../types.js';
import { UpstreamBody } from '../../upstream-exchange.js';
import { wholeResponse } from '../refusal-in-body.js';
import { isLastFrame, SparkAssembly, type SparkFrame, sparkRefusalStatus } from './frames.js';

/** The socket behind an answer body: a slow client pauses it, a departed one closes it. */
function socketControl(socket: WebSocket): Dispatcher.DispatchController {
  return {
    pause: () => socket.pause(),
    resume: () => socket.resume(),
    abort: () => socket.terminate(),
  } as unknown as Dispatcher.DispatchController;
}

function parseFrame(text: string): SparkFrame | null {
  try {
    const frame = JSON.parse(text) as unknown;
    return frame && typeof frame === 'object' ? (frame as SparkFrame) : null;
  } catch {
    return null;
  }
}

/**
 * Carries out a Spark call over its WebSocket: `call.url` is the signed URL, `call.body` the request frame. The
 * answer reads like an HTTP one, so the conveyor needs nothing else: a refused handshake keeps its status and body;
 * an error in the first frame becomes the status it means; a stream's frames become one server-sent event each, as
 * they come; a whole answer's frames are joined into one frame of the same shape.
 */
export function openSpark(call: UpstreamCall, options: OpenOptions): Promise<UpstreamResponse> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(call.url, { headers: call.headers, handshakeTimeout: options.timeoutMs });
    const assembly = options.stream ? null : new SparkAssembly();
    let body: UpstreamBody | null = null;
    let done = false;
    const timer = setTimeout(
      () => end(new Error(`Spark did not finish its answer in ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    const stopListening = options.cancellation?.onAbort(() =>
      end(new Error('upstream request cancelled: the client went away')),
    );

    /** Ends the exchange once: with the answer complete (no error), or broken off. */
    function end(error?: Error, answer?: UpstreamResponse): void {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stopListening?.();
      if (error) socket.terminate();
      else socket.close(1000);
      if (answer) resolve(answer);
      else if (body) body.finish(error);
      else reject(error ?? new Error('Spark closed the connection without an answer'));
    }

    socket.on('unexpected-response', (_request, response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        end(undefined, wholeResponse(response.statusCode ?? 502, text, String(response.headers['content-type'] ?? '')));
      });
      response.on('error', (error) => end(error));
    });
    socket.on('open', () => socket.send(call.body ?? ''));
    socket.on('message', (data) => {
      if (done) return;
      const text = data.toString();
      const frame = parseFrame(text);
      if (!frame) return end(new Error('Spark sent a frame that is not JSON'));
      if (!body && !assembly) {
        const refused = sparkRefusalStatus(frame);
        if (refused) return end(undefined, wholeResponse(refused, text));
        body = new UpstreamBody();
        body.controller = socketControl(socket);
        resolve({ statusCode: 200, headers: { 'content-type': 'text/event-stream' }, body });
      }
      if (assembly) {
        const refused = sparkRefusalStatus(frame);
        if (refused) return end(undefined, wholeResponse(refused, text));
        assembly.add(frame);
      } else {
        // JSON never needs a raw line break (those inside strings are escaped), so one frame is one `data:` line.
        body!.push(Buffer.from(`data: ${text.replace(/[\r\n]/g, '')}\n\n`));
      }
      if (!isLastFrame(frame)) return;
      if (assembly) end(undefined, wholeResponse(200, assembly.json()));
      else end();
    });
    socket.on('error', (error) => end(error));
    socket.on('close', () => end(new Error('Spark closed the connection before the last frame')));
  });
}
