import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeTurnstile {
  /** The siteverify URL to hand the gateway as TURNSTILE_VERIFY_URL. */
  url: string;
  /** Tokens the fake accepts (with the right secret). */
  validTokens: Set<string>;
  /** Every form the gateway posted, decoded. */
  received: Record<string, string>[];
  close(): Promise<void>;
}

/**
 * A local stand-in for Cloudflare's siteverify endpoint: a form POST of secret, response and remoteip, answered
 * with `{"success": …, "error-codes": […]}` as the real one does.
 */
export async function startFakeTurnstile(secret: string): Promise<FakeTurnstile> {
  const validTokens = new Set<string>();
  const received: Record<string, string>[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      received.push(form);
      const errors: string[] = [];
      if (form.secret !== secret) errors.push('invalid-input-secret');
      if (!form.response || !validTokens.has(form.response)) errors.push('invalid-input-response');
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ success: errors.length === 0, 'error-codes': errors }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/turnstile/v0/siteverify`,
    validTokens,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
