/**
 * How a body becomes a row: inline media replaced by a marker of its size (rows stay small and a log is no image
 * store), known keys replaced by a marker (a client or upstream that echoes one never gets it stored), NUL made
 * visible (PostgreSQL text refuses it), then cut at the byte cap with a marker saying how long the body was.
 */

/** `data:<type>[;params];base64,<payload>` inside any text (JSON strings, SSE events). */
const DATA_URL = /data:([\w.+-]+\/[\w.+-]+)?((?:;[\w.+-]+=[\w.+-]*)*);base64,([A-Za-z0-9+/]+={0,2})/g;

/** A JSON string that is nothing but a long base64 run (Gemini's inline data, Claude's image source, b64_json). */
const BASE64_STRING = /"([A-Za-z0-9+/]{1024,}={0,2})"/g;

const SHORTEST_SECRET = 8;

/** Bytes a base64 payload decodes to. */
function decodedSize(payload: string): number {
  const padding = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
  return Math.floor((payload.length * 3) / 4) - padding;
}

export function dataUrlMarker(type: string, size: number): string {
  return `[data:${type || 'application/octet-stream'};base64 omitted, ${size} bytes]`;
}

export function base64Marker(size: number): string {
  return `[base64 omitted, ${size} bytes]`;
}

/** Inline media → markers; each secret (token key, channel keys) → `[redacted]`; NUL → `\u0000`. */
export function scrubText(text: string, secrets: readonly string[]): string {
  let scrubbed = text
    .replace(DATA_URL, (_match, type: string | undefined, _params, payload: string) =>
      dataUrlMarker(type ?? '', decodedSize(payload)),
    )
    .replace(BASE64_STRING, (_match, payload: string) => `"${base64Marker(decodedSize(payload))}"`);
  for (const secret of secrets) {
    // Short strings would mangle ordinary text; real keys are far longer.
    if (secret.length >= SHORTEST_SECRET && scrubbed.includes(secret))
      scrubbed = scrubbed.split(secret).join('[redacted]');
  }
  return scrubbed.includes('\u0000') ? scrubbed.replaceAll('\u0000', '\\u0000') : scrubbed;
}

export function cutMarker(totalBytes: number): string {
  return `\n…[cut: ${totalBytes} bytes in all]`;
}

/**
 * The text within `maxBytes` of UTF-8 (never splitting a character), followed by a marker when anything was cut.
 * `totalBytes` is the length of the original when the text given is already a prefix of it (a stream).
 */
export function capText(text: string, maxBytes: number, totalBytes?: number): string {
  const bytes = Buffer.from(text, 'utf8');
  const total = Math.max(totalBytes ?? 0, bytes.length);
  if (total <= maxBytes) return text;
  let end = Math.min(maxBytes, bytes.length);
  // The first byte left out continues a character: leave that whole character out.
  while (end > 0 && end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8') + cutMarker(total);
}
