import type { UpstreamResponse } from '../send.js';
import { UpstreamBody } from '../upstream-exchange.js';

/** A file already held (decoded from the vendor's answer) as an upstream answer, byte for byte. */
export function heldFile(bytes: Buffer, contentType: string): UpstreamResponse {
  const body = new UpstreamBody(Number.POSITIVE_INFINITY);
  body.push(bytes);
  body.finish();
  return { statusCode: 200, headers: { 'content-type': contentType, 'content-length': String(bytes.length) }, body };
}

/** A `data:` URL's bytes and type, or null when it is none (or not base64). */
export function dataUrlFile(url: string): { bytes: Buffer; contentType: string } | null {
  const match = /^data:([^;,]*)(;[^,]*)?,(.*)$/s.exec(url);
  if (!match?.[2]?.includes('base64')) return null;
  return { bytes: Buffer.from(match[3] ?? '', 'base64'), contentType: match[1] || 'application/octet-stream' };
}
