import type { VideoFunction } from '../../provider.js';
import type { UpstreamResponse } from '../../send.js';
import type { RuntimeChannel, UpstreamCall } from '../../types.js';
import { UpstreamBody } from '../../upstream-exchange.js';

/**
 * A proposed addition to the video contract (provider.ts), kept here until the engine takes it: `content` is one
 * call whose answer is the file, and some vendors' files are not that. MiniMax answers a file id, and a second call
 * turns it into a signed download URL; the Gemini API answers the keyed download with a redirect to a signed URL
 * (followed without the key); Vertex may hand the video back inside the operation (base64), with nothing left to
 * call. `download` fetches the file in as many steps as the vendor needs, each through `open` (the
 * provider's `open` when it has one: Vertex's token), and answers like `content`'s call would. When a vendor has
 * it, the engine uses it instead of `content`.
 */
export interface DownloadingVideoFunction extends VideoFunction {
  download(
    channel: RuntimeChannel,
    upstreamId: string,
    url: string | undefined,
    open: (call: UpstreamCall) => Promise<UpstreamResponse>,
  ): Promise<UpstreamResponse>;
}

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
