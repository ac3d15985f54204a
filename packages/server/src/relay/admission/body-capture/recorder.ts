import type { FastifyRequest } from 'fastify';
import type { CachedChannel } from '../../../cache/channel-cache.js';
import type { AppContext } from '../../../context.js';
import { nowSeconds } from '../../../db/sql-helpers.js';
import type { RelayCaller } from '../caller.js';
import { capText, scrubText } from './body-text.js';
import { requestText } from './request-text.js';

/** What the answer readers (relay/read-answer.ts) hand over of what the client was sent. */
export interface AnswerCapture {
  /** A whole answer, as sent. */
  whole(body: string | Buffer, contentType: string): void;
  /** One piece of a stream (events as converted for the client). */
  event(text: string): void;
  /** Bytes streamed as they are (speech audio): only their type and count are kept. */
  bytes(size: number, contentType: string): void;
}

const TEXTUAL = /json|text|xml|event-stream|javascript|x-www-form-urlencoded/i;

export function binaryMarker(contentType: string, size: number): string {
  return `[${contentType || 'application/octet-stream'}, ${size} bytes]`;
}

/**
 * One relay call's bodies: the request as the client sent it and the answer as it was sent back, kept when the
 * call's channel (setting `log_bodies: true`) or group (option `LogBodiesGroups`) asks for it. Nothing is written
 * on the request's path: `commit` hands one row to the batching writer (ctx.bodyWriter).
 */
export class BodyRecorder implements AnswerCapture {
  private wholeText: string | undefined;
  private binary: { type: string; size: number } | undefined;
  /** The stream's pieces, inline media already replaced, until they fill the cap. */
  private streamed = '';
  private streamedBytes = 0;
  private streamComplete = true;

  constructor(
    private readonly ctx: AppContext,
    private readonly request: FastifyRequest,
    private readonly secrets: readonly string[],
    private readonly maxBytes: number,
  ) {}

  whole(body: string | Buffer, contentType: string): void {
    if (typeof body !== 'string' && !TEXTUAL.test(contentType)) this.bytes(body.length, contentType);
    else this.wholeText = typeof body === 'string' ? body : body.toString('utf8');
  }

  event(text: string): void {
    this.streamedBytes += Buffer.byteLength(text);
    // A UTF-8 character takes at least one byte per UTF-16 unit: this many units always fill the byte cap.
    const room = this.maxBytes - this.streamed.length;
    if (room <= 0) {
      this.streamComplete = false;
      return;
    }
    const piece = scrubText(text, []);
    if (piece.length > room) this.streamComplete = false;
    this.streamed += piece.length > room ? piece.slice(0, room) : piece;
  }

  bytes(size: number, contentType: string): void {
    this.binary = { type: contentType, size: (this.binary?.size ?? 0) + size };
  }

  /** Queues the row for the usage log row written under the same request id. */
  commit(requestId: string): void {
    const { maxBytes, secrets } = this;
    const request = requestText(this.request.body, this.request.headers['content-type']);
    let response: string;
    if (this.binary) response = binaryMarker(this.binary.type, this.binary.size);
    else if (this.wholeText !== undefined) response = capText(scrubText(this.wholeText, secrets), maxBytes);
    else {
      response = capText(
        scrubText(this.streamed, secrets),
        maxBytes,
        this.streamComplete ? undefined : this.streamedBytes,
      );
    }
    this.ctx.bodyWriter.append({
      request_id: requestId,
      created_at: nowSeconds(),
      request_body: capText(scrubText(request, secrets), maxBytes),
      response_body: response,
    });
  }
}

/**
 * The recorder for a call through `channel`, or undefined when neither switch applies (the usual case: two cached
 * option reads). Consume logs must be on: the bodies are found through their log row.
 */
export function bodyRecorder(
  ctx: AppContext,
  caller: RelayCaller,
  channel: CachedChannel,
  request: FastifyRequest,
): BodyRecorder | undefined {
  const { options } = ctx;
  if (!options.bool('LogConsumeEnabled')) return undefined;
  const groups = options.json<unknown>('LogBodiesGroups');
  const wanted = channel.setting?.log_bodies === true || (Array.isArray(groups) && groups.includes(caller.group));
  if (!wanted) return undefined;
  // The token's key and every key of the channel: never stored, even when a client or upstream echoes one.
  const secrets = [caller.token.key, channel.key, ...channel.keys].filter(Boolean);
  return new BodyRecorder(ctx, request, secrets, options.number('LogBodiesMaxBytes'));
}
