import { createHash, createHmac } from 'node:crypto';

export interface SigV4Request {
  method: string;
  /** The path as it goes on the wire (segments already percent-encoded once, as `/model/a%3A0/converse`). */
  path: string;
  /** The query string without `?` (empty for Bedrock's calls). */
  query?: string;
  /** The headers to sign, `host` and `x-amz-date` at least (names in any case). */
  headers: Record<string, string>;
  /** The body exactly as sent. */
  payload: string | Buffer;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  service: string;
}

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest();

/** RFC 3986 escaping as SigV4 asks: only `A-Za-z0-9-_.~` stay as they are. */
function escapeUri(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `20150830T123600Z`, the form of `x-amz-date`. */
export function amzDate(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/**
 * Every service but S3 signs the path encoded a second time: the `%3A` of a Bedrock model id becomes `%253A` in
 * the canonical request, as the AWS SDKs sign it.
 */
function canonicalPath(path: string): string {
  return path
    .split('/')
    .map((segment) => escapeUri(segment))
    .join('/');
}

function canonicalQuery(query: string): string {
  if (!query) return '';
  return query
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      const [name, value] = at === -1 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
      return [escapeUri(decodeURIComponent(name)), escapeUri(decodeURIComponent(value))] as const;
    })
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

/**
 * AWS Signature Version 4's `Authorization` header: a canonical request (method, path, query, the signed headers
 * lower-cased and sorted with their values trimmed, the body's SHA-256), a string to sign over it with the scope
 * `date/region/service/aws4_request`, and a key derived from the secret through the date, region and service.
 * The time is the request's own `x-amz-date` header, so the signature and the header can never disagree.
 */
export function sigV4Authorization(request: SigV4Request): string {
  const headers = Object.entries(request.headers)
    .map(([name, value]) => [name.toLowerCase(), value.trim().replace(/\s+/g, ' ')] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const time = headers.find(([name]) => name === 'x-amz-date')?.[1];
  if (!time) throw new Error('SigV4: the x-amz-date header is to be signed');
  const date = time.slice(0, 8);
  const signedHeaders = headers.map(([name]) => name).join(';');
  const canonicalRequest = [
    request.method.toUpperCase(),
    canonicalPath(request.path),
    canonicalQuery(request.query ?? ''),
    headers.map(([name, value]) => `${name}:${value}\n`).join(''),
    signedHeaders,
    sha256Hex(request.payload),
  ].join('\n');
  const scope = `${date}/${request.region}/${request.service}/aws4_request`;
  const stringToSign = `AWS4-HMAC-SHA256\n${time}\n${scope}\n${sha256Hex(canonicalRequest)}`;
  const key = hmac(
    hmac(hmac(hmac(`AWS4${request.secretAccessKey}`, date), request.region), request.service),
    'aws4_request',
  );
  const signature = createHmac('sha256', key).update(stringToSign).digest('hex');
  return `AWS4-HMAC-SHA256 Credential=${request.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}
