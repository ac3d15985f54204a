import { createHash, createHmac } from 'node:crypto';

/** Volcengine's visual API lives in one region and service for every account. */
export const JIMENG_REGION = 'cn-north-1';
export const JIMENG_SERVICE = 'cv';

export interface VolcengineSigning {
  accessKey: string;
  secretKey: string;
  method: string;
  /** The full URL as sent: host (with its port, as the Host header carries it), path and query are signed. */
  url: string;
  contentType: string;
  /** The body exactly as sent. */
  body: string;
  now?: Date;
}

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest();

/** RFC 3986 percent-encoding (encodeURIComponent leaves !'()* alone; the canonical query must not). */
const rfc3986 = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * Volcengine's signature V4 (HMAC-SHA256): a canonical request (method, path, the query sorted and encoded, the
 * signed headers lower-cased and sorted, the body's SHA-256), a string to sign with the scope
 * `date/region/service/request`, and a key derived from the secret through the date, region, service and `request`.
 * Returns the headers to add: `X-Date`, `X-Content-Sha256` and `Authorization`.
 */
export function volcengineSignature(signing: VolcengineSigning): Record<string, string> {
  const url = new URL(signing.url);
  const xDate = (signing.now ?? new Date())
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const shortDate = xDate.slice(0, 8);
  const payloadHash = sha256Hex(signing.body);
  const query = [...url.searchParams.entries()]
    .map(([name, value]) => [rfc3986(name), rfc3986(value)] as const)
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const headers: Array<[string, string]> = [
    ['content-type', signing.contentType],
    ['host', url.host],
    ['x-content-sha256', payloadHash],
    ['x-date', xDate],
  ];
  const signedHeaders = headers.map(([name]) => name).join(';');
  const canonicalRequest = [
    signing.method.toUpperCase(),
    url.pathname || '/',
    query,
    headers.map(([name, value]) => `${name}:${value.trim()}\n`).join(''),
    signedHeaders,
    payloadHash,
  ].join('\n');
  const scope = `${shortDate}/${JIMENG_REGION}/${JIMENG_SERVICE}/request`;
  const stringToSign = ['HMAC-SHA256', xDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(signing.secretKey, shortDate), JIMENG_REGION), JIMENG_SERVICE), 'request');
  const signature = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  return {
    'x-date': xDate,
    'x-content-sha256': payloadHash,
    authorization: `HMAC-SHA256 Credential=${signing.accessKey}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
  };
}
