import { createHash, createHmac } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { SignatureV4 } from '@smithy/signature-v4';

// Bedrock's wire pieces for the mock and the unit tests, written apart from the gateway's code so they check it:
// event-stream frames built from AWS's layout, and SigV4 computed by AWS's own signer (@smithy/signature-v4, what
// the AWS SDKs sign with).

/** One event-stream message with string headers (all Bedrock sends): prelude, its CRC, headers, payload, CRC. */
export function encodeEventMessage(headers: Record<string, string>, payload: Buffer): Buffer {
  const encoded = Object.entries(headers).map(([name, value]) => {
    const nameBytes = Buffer.from(name);
    const valueBytes = Buffer.from(value);
    const header = Buffer.alloc(1 + nameBytes.length + 1 + 2 + valueBytes.length);
    header.writeUInt8(nameBytes.length, 0);
    nameBytes.copy(header, 1);
    header.writeUInt8(7, 1 + nameBytes.length);
    header.writeUInt16BE(valueBytes.length, 2 + nameBytes.length);
    valueBytes.copy(header, 4 + nameBytes.length);
    return header;
  });
  const headerBytes = Buffer.concat(encoded);
  const total = 12 + headerBytes.length + payload.length + 4;
  const message = Buffer.alloc(total);
  message.writeUInt32BE(total, 0);
  message.writeUInt32BE(headerBytes.length, 4);
  message.writeUInt32BE(crc32(message.subarray(0, 8)), 8);
  headerBytes.copy(message, 12);
  payload.copy(message, 12 + headerBytes.length);
  message.writeUInt32BE(crc32(message.subarray(0, total - 4)), total - 4);
  return message;
}

export function eventFrame(type: string, payload: unknown): Buffer {
  return encodeEventMessage(
    { ':event-type': type, ':content-type': 'application/json', ':message-type': 'event' },
    Buffer.from(JSON.stringify(payload)),
  );
}

/** A modeled error inside the stream: `:exception-type` in lower camel case, as Bedrock's stream unions name them. */
export function exceptionFrame(type: string, message: string): Buffer {
  return encodeEventMessage(
    { ':exception-type': type, ':content-type': 'application/json', ':message-type': 'exception' },
    Buffer.from(JSON.stringify({ message })),
  );
}

/** node:crypto in the shape @smithy/signature-v4 asks for (a hash, or an HMAC when given a secret). */
type SourceData = string | ArrayBuffer | ArrayBufferView;
const bytesOf = (data: SourceData) =>
  typeof data === 'string'
    ? data
    : data instanceof ArrayBuffer
      ? Buffer.from(data)
      : Buffer.from(data.buffer, data.byteOffset, data.byteLength);

class NodeSha256 {
  private readonly hash;
  constructor(secret?: SourceData) {
    this.hash = secret ? createHmac('sha256', bytesOf(secret)) : createHash('sha256');
  }
  update(data: SourceData): void {
    this.hash.update(bytesOf(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
  reset(): void {}
}

export interface SignedRequest {
  method: string;
  /** The path as received (its segments percent-encoded once). */
  path: string;
  query?: Record<string, string>;
  /** Only the headers to sign (lower-cased names), `host` and `x-amz-date` among them. */
  headers: Record<string, string>;
  body: string;
}

/** The `Authorization` AWS's own signer computes for a request at the time of its `x-amz-date`. */
export async function awsSignerAuthorization(
  request: SignedRequest,
  credentials: { accessKeyId: string; secretAccessKey: string },
  region: string,
  service: string,
): Promise<string> {
  const signer = new SignatureV4({ service, region, credentials, sha256: NodeSha256, applyChecksum: false });
  const time = request.headers['x-amz-date'] ?? '';
  const signingDate = new Date(
    `${time.slice(0, 4)}-${time.slice(4, 6)}-${time.slice(6, 8)}T${time.slice(9, 11)}:${time.slice(11, 13)}:${time.slice(13, 15)}Z`,
  );
  const [hostname = '', port] = (request.headers.host ?? '').split(':');
  const signed = await signer.sign(
    {
      method: request.method,
      protocol: 'https:',
      hostname,
      ...(port ? { port: Number(port) } : {}),
      path: request.path,
      query: request.query ?? {},
      headers: { ...request.headers },
      body: request.body,
    },
    { signingDate },
  );
  return String(signed.headers.authorization);
}
