/**
 * How much of one upstream answer the gateway may hold in memory. An upstream (or a proxy in front of it) that
 * answers without end must cost a bounded amount of memory and the caller nothing: over a limit the read is
 * aborted and the caller gets a 502 (relay/upstream-failure.ts, `oversizedAnswer`).
 */

const MIB = 1024 * 1024;

/**
 * A whole (non-streamed) answer, read into memory before it is converted (MAX_UPSTREAM_RESPONSE_MB). The largest
 * real ones are float embeddings of 2048 inputs of 3072 dimensions (80-115 MB of JSON) and several generated 4K
 * images in base64; 128 MiB holds those and matches the largest request body the relay accepts.
 */
export const DEFAULT_WHOLE_ANSWER_BYTES = 128 * MIB;

/**
 * One server-sent event, held until its blank line arrives (STREAM_SCANNER_MAX_BUFFER_MB, the family's name for
 * its scanner's buffer). The largest real events carry a generated image in base64 (a 4096×4096 PNG from
 * Gemini's image models is 25-35 MB encoded; a Responses stream's `response.completed` repeats every image of the
 * answer); 64 MiB leaves twice that, where the family's 128 MiB would let one bad stream hold twice as much.
 */
export const DEFAULT_EVENT_BYTES = 64 * MIB;

export interface AnswerLimits {
  /** Largest whole answer body, in bytes. */
  wholeBytes: number;
  /** Largest single event of a streamed answer, in bytes. */
  eventBytes: number;
}

/** The upstream's answer (or one of its events) grew past its limit; its read has been aborted. */
export class AnswerTooLarge extends Error {
  readonly code = 'ANSWER_TOO_LARGE';

  constructor(
    readonly part: 'answer' | 'event',
    readonly limitBytes: number,
  ) {
    super(`upstream ${part === 'answer' ? 'answer body' : 'stream event'} exceeded ${readableBytes(limitBytes)}`);
  }
}

function readableBytes(bytes: number): string {
  return bytes >= MIB ? `${Math.round((bytes / MIB) * 10) / 10} MiB` : `${bytes} bytes`;
}
