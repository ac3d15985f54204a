import type { IncomingMessage } from 'node:http';
import type { MultipartBody, MultipartFile } from './types.js';

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    // A client that gives up mid-upload never sends 'end'; settle with what arrived so nothing waits forever.
    req.on('close', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Marker for a body that claimed to be JSON but did not parse: providers answer 400 for it. */
export class InvalidJson {
  constructor(readonly raw: string) {}
}

/**
 * Parse the body the way the provider would read it, so a test can assert what the gateway forwarded: JSON as a
 * value, forms as `{fields, files}` (the upload bytes kept for comparison), anything else as the raw string.
 */
export function parseBody(raw: Buffer, contentType: string | undefined): unknown {
  if (raw.length === 0) return undefined;
  const type = (contentType ?? '').toLowerCase();
  if (type.includes('multipart/form-data')) {
    const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType ?? '');
    if (boundary) return parseMultipart(raw, boundary[1] ?? boundary[2]);
  }
  if (type.includes('application/x-www-form-urlencoded')) {
    return { fields: Object.fromEntries(new URLSearchParams(raw.toString('utf8'))), files: [] } satisfies MultipartBody;
  }
  const text = raw.toString('utf8');
  if (type.includes('json') || type === '') {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return type.includes('json') ? new InvalidJson(text) : text;
    }
  }
  return text;
}

/** A small RFC 7578 reader: enough for the SDKs' uploads (one level, CRLF line ends, no nested mixed parts). */
export function parseMultipart(raw: Buffer, boundary: string): MultipartBody {
  const result: MultipartBody = { fields: {}, files: [] };
  const delimiter = Buffer.from(`--${boundary}`);
  let start = raw.indexOf(delimiter);
  while (start !== -1) {
    const partStart = start + delimiter.length;
    // `--boundary--` closes the body.
    if (raw.subarray(partStart, partStart + 2).toString() === '--') break;
    const next = raw.indexOf(delimiter, partStart);
    if (next === -1) break;
    // Each part sits between the CRLF after the delimiter and the CRLF before the next one.
    const part = raw.subarray(partStart + 2, next - 2);
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd !== -1) {
      const headerText = part.subarray(0, headerEnd).toString('utf8');
      const data = part.subarray(headerEnd + 4);
      const disposition = /content-disposition:([^\r\n]*)/i.exec(headerText)?.[1] ?? '';
      const name = /\bname="([^"]*)"/i.exec(disposition)?.[1] ?? '';
      const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
      if (filename !== undefined) {
        const file: MultipartFile = {
          field: name,
          filename,
          contentType: /content-type:\s*([^\r\n]*)/i.exec(headerText)?.[1]?.trim() ?? 'application/octet-stream',
          size: data.length,
          data: Buffer.from(data),
        };
        result.files.push(file);
      } else {
        result.fields[name] = data.toString('utf8');
      }
    }
    start = next;
  }
  return result;
}

export function isMultipart(body: unknown): body is MultipartBody {
  return typeof body === 'object' && body !== null && 'fields' in body && 'files' in body;
}
