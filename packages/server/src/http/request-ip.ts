import type { FastifyRequest } from 'fastify';

/**
 * The caller's address. X-Forwarded-For is honoured only when the direct peer is a configured trusted proxy;
 * otherwise anyone could pick their own IP and dodge rate limits and allow lists.
 */
export function clientIp(request: FastifyRequest, trustedProxies: string[]): string {
  const peer = normaliseAddress(request.socket.remoteAddress ?? '');
  if (trustedProxies.length === 0 || !trustedProxies.includes(peer)) return peer;
  const forwarded = request.headers['x-forwarded-for'];
  const chain = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? ''))
    .split(',')
    .map((part) => normaliseAddress(part.trim()))
    .filter(Boolean);
  // Walk from the nearest hop back, skipping our own proxies; the first untrusted address is the client.
  for (let index = chain.length - 1; index >= 0; index--) {
    if (!trustedProxies.includes(chain[index]!)) return chain[index]!;
  }
  return chain[0] ?? peer;
}

/** An IPv4 client of a dual-stack socket as plain IPv4, as proxies and allow lists write it. */
export function normaliseAddress(address: string): string {
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}
