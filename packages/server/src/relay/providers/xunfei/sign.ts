import { createHmac } from 'node:crypto';

/**
 * Spark's signed WebSocket URL: HMAC-SHA256 with the API secret over `host`, `date` and the request line, wrapped in
 * an `authorization` (base64 of `api_key="…", algorithm="hmac-sha256", headers="host date request-line",
 * signature="…"`) that travels in the query with the same host and date. `date` is RFC 1123 (the signature is
 * refused when it is more than 300 s off).
 */
export function signedSparkUrl(url: string, apiKey: string, apiSecret: string, date: string): string {
  const { host, pathname } = new URL(url);
  const signature = createHmac('sha256', apiSecret)
    .update(`host: ${host}\ndate: ${date}\nGET ${pathname} HTTP/1.1`)
    .digest('base64');
  const origin = `api_key="${apiKey}", algorithm="hmac-sha256", headers="host date request-line", signature="${signature}"`;
  const query = new URLSearchParams({ authorization: Buffer.from(origin).toString('base64'), date, host });
  return `${url}?${query}`;
}
