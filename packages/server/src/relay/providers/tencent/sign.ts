import { createHash, createHmac } from 'node:crypto';

export interface Tc3Request {
  secretId: string;
  secretKey: string;
  /** The product in the credential scope (`hunyuan`, `cvm`). */
  service: string;
  /** Seconds since the epoch; the scope's date is its UTC day. */
  timestamp: number;
  /** The headers to sign, `host` and `content-type` at least (names in any case). */
  headers: Record<string, string>;
  /** The body exactly as sent. */
  payload: string;
  method?: 'POST' | 'GET';
  /** The query string of a GET request (empty for POST). */
  query?: string;
}

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest();

/**
 * Tencent Cloud API 3.0's `Authorization` (TC3-HMAC-SHA256): a canonical request (method, `/`, query, the signed
 * headers lower-cased and sorted, the body's SHA-256), a string to sign over it with the credential scope
 * `date/service/tc3_request`, and a key derived from the secret through the date, the service and `tc3_request`.
 */
export function tc3Authorization(request: Tc3Request): string {
  const date = new Date(request.timestamp * 1000).toISOString().slice(0, 10);
  const headers = Object.entries(request.headers)
    .map(([name, value]) => [name.toLowerCase(), value.trim().toLowerCase()] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const signedHeaders = headers.map(([name]) => name).join(';');
  const canonicalRequest = [
    request.method ?? 'POST',
    '/',
    request.query ?? '',
    headers.map(([name, value]) => `${name}:${value}\n`).join(''),
    signedHeaders,
    sha256Hex(request.payload),
  ].join('\n');
  const scope = `${date}/${request.service}/tc3_request`;
  const stringToSign = `TC3-HMAC-SHA256\n${request.timestamp}\n${scope}\n${sha256Hex(canonicalRequest)}`;
  const signingKey = hmac(hmac(hmac(`TC3${request.secretKey}`, date), request.service), 'tc3_request');
  const signature = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  return `TC3-HMAC-SHA256 Credential=${request.secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}
