import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { normaliseAddress } from './request-ip.js';

/**
 * Caps the connections one client address holds open at once (MAX_CONNECTIONS_PER_IP). A connection past the cap is
 * closed as it arrives, before Node's HTTP parser is given it, so a client trickling many slow connections holds at
 * most `max` of them, each for at most the headers timeout. It gets no 503: writing one would mean reading its
 * request first. Trusted proxies are exempt: every client behind them arrives from their address.
 */
export function capConnectionsPerAddress(server: Server, max: number, exempt: readonly string[]): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  // Before Node's own listener: a refused socket never costs a parser or a request.
  server.prependListener('connection', (socket: Socket) => {
    const address = normaliseAddress(socket.remoteAddress ?? '');
    if (exempt.includes(address)) return;
    const count = open.get(address) ?? 0;
    if (count >= max) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
