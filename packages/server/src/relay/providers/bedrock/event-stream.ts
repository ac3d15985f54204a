import { crc32 } from 'node:zlib';

/**
 * AWS's binary event-stream framing (`application/vnd.amazon.eventstream`), as Bedrock's streaming answers use it.
 * A message is: total length (u32), headers length (u32), CRC32 of those 8 bytes (u32), the headers, the payload,
 * and a CRC32 of everything before it (u32). A header is a name (u8 length + bytes), a type byte and a value.
 */

export type HeaderValue = string | number | boolean | bigint | Buffer | Date;

export interface EventStreamMessage {
  headers: Record<string, HeaderValue>;
  payload: Buffer;
}

const PRELUDE = 12;
const CHECKSUM = 4;
/** AWS caps a message at 16 MiB of payload plus 128 KiB of headers; anything larger is a corrupt length. */
const MAX_MESSAGE = 16 * 1024 * 1024 + 128 * 1024 + PRELUDE + CHECKSUM;

export class EventStreamError extends Error {}

function readHeaders(bytes: Buffer): Record<string, HeaderValue> {
  const headers: Record<string, HeaderValue> = {};
  let at = 0;
  const need = (length: number) => {
    if (at + length > bytes.length) throw new EventStreamError('event-stream header runs past its block');
  };
  while (at < bytes.length) {
    need(1);
    const nameLength = bytes.readUInt8(at);
    at += 1;
    need(nameLength + 1);
    const name = bytes.toString('utf8', at, at + nameLength);
    at += nameLength;
    const type = bytes.readUInt8(at);
    at += 1;
    switch (type) {
      case 0:
      case 1:
        headers[name] = type === 0;
        break;
      case 2:
        need(1);
        headers[name] = bytes.readInt8(at);
        at += 1;
        break;
      case 3:
        need(2);
        headers[name] = bytes.readInt16BE(at);
        at += 2;
        break;
      case 4:
        need(4);
        headers[name] = bytes.readInt32BE(at);
        at += 4;
        break;
      case 5:
      case 8:
        need(8);
        headers[name] = type === 5 ? bytes.readBigInt64BE(at) : new Date(Number(bytes.readBigInt64BE(at)));
        at += 8;
        break;
      case 6:
      case 7: {
        need(2);
        const length = bytes.readUInt16BE(at);
        at += 2;
        need(length);
        headers[name] =
          type === 7 ? bytes.toString('utf8', at, at + length) : Buffer.from(bytes.subarray(at, at + length));
        at += length;
        break;
      }
      case 9:
        need(16);
        headers[name] = Buffer.from(bytes.subarray(at, at + 16));
        at += 16;
        break;
      default:
        throw new EventStreamError(`event-stream header "${name}" has unknown type ${type}`);
    }
  }
  return headers;
}

/**
 * Reads messages from a byte stream as it arrives: chunks may end anywhere (inside the prelude, a header, the
 * payload). Bytes are joined only once a whole message is there, so a message costs at most one copy.
 */
export class EventStreamDecoder {
  private chunks: Buffer[] = [];
  private size = 0;

  /** The messages the bytes so far complete; throws EventStreamError on a corrupt message. */
  push(chunk: Buffer): EventStreamMessage[] {
    if (chunk.length) {
      this.chunks.push(chunk);
      this.size += chunk.length;
    }
    const messages: EventStreamMessage[] = [];
    for (;;) {
      if (this.size < PRELUDE) return messages;
      const prelude = this.contiguous(PRELUDE);
      const total = prelude.readUInt32BE(0);
      const headersLength = prelude.readUInt32BE(4);
      if (crc32(prelude.subarray(0, 8)) !== prelude.readUInt32BE(8)) {
        throw new EventStreamError('event-stream prelude checksum mismatch');
      }
      if (total < PRELUDE + CHECKSUM || total > MAX_MESSAGE || headersLength > total - PRELUDE - CHECKSUM) {
        throw new EventStreamError(`event-stream message length ${total} is not possible`);
      }
      if (this.size < total) return messages;
      const bytes = this.contiguous(total);
      if (crc32(bytes.subarray(0, total - CHECKSUM)) !== bytes.readUInt32BE(total - CHECKSUM)) {
        throw new EventStreamError('event-stream message checksum mismatch');
      }
      messages.push({
        headers: readHeaders(bytes.subarray(PRELUDE, PRELUDE + headersLength)),
        // Copied: the payload outlives the chunk it was cut from.
        payload: Buffer.from(bytes.subarray(PRELUDE + headersLength, total - CHECKSUM)),
      });
      this.consume(total);
    }
  }

  /** Bytes received that do not make a whole message yet (a stream that ends with some was cut). */
  get pending(): number {
    return this.size;
  }

  private contiguous(length: number): Buffer {
    if (this.chunks[0]!.length < length) this.chunks = [Buffer.concat(this.chunks, this.size)];
    return this.chunks[0]!;
  }

  private consume(length: number): void {
    const first = this.chunks[0]!;
    this.size -= length;
    if (first.length === length) this.chunks.shift();
    else this.chunks[0] = first.subarray(length);
  }
}

/** What a message says it is: an event, or an error the service reports in place of one. */
export type StreamItem =
  | { kind: 'event'; type: string; payload: Buffer }
  | { kind: 'exception'; type: string; message: string };

/**
 * `:message-type` `event` carries `:event-type`; `exception` carries `:exception-type` and a JSON payload with the
 * message (a modeled error: throttlingException…); `error` carries `:error-code` and `:error-message`.
 */
export function streamItem(message: EventStreamMessage): StreamItem {
  const headers = message.headers;
  const kind = headers[':message-type'];
  if (kind === 'exception') {
    let text = message.payload.toString('utf8');
    try {
      const body = JSON.parse(text) as { message?: unknown; Message?: unknown };
      text = String(body.message ?? body.Message ?? text);
    } catch {
      // a plain-text message
    }
    return { kind: 'exception', type: String(headers[':exception-type'] ?? 'UnknownException'), message: text };
  }
  if (kind === 'error') {
    return {
      kind: 'exception',
      type: String(headers[':error-code'] ?? 'UnknownError'),
      message: String(headers[':error-message'] ?? ''),
    };
  }
  return { kind: 'event', type: String(headers[':event-type'] ?? ''), payload: message.payload };
}
