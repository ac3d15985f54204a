import { type IncomingHttpHeaders, type IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type WebSocket, WebSocketServer } from 'ws';
import type { AppContext } from '../../context.js';

/**
 * WebSocket upgrades on the relay (the Responses API's WebSocket mode, Realtime). An upgrade request runs through
 * Fastify like any request (per-IP limits, request id, the route's own authentication), so a refusal is an ordinary
 * HTTP answer written on the socket and no socket is opened; the route accepts the upgrade only once it has decided.
 */

const UPGRADE = Symbol('websocket upgrade');
/** The key a browser cannot put in a header, carried as a subprotocol (OpenAI's Realtime convention). */
export const KEY_PROTOCOL = 'openai-insecure-api-key.';

interface Upgrading extends IncomingMessage {
  [UPGRADE]?: { socket: Duplex; head: Buffer };
  gatewayRequestId?: string;
}

const upgradePaths = new WeakMap<FastifyInstance, Set<string>>();

/** Routes upgrades on `path` into Fastify (the server's one upgrade listener answers every other path 404). */
export function acceptUpgradesOn(app: FastifyInstance, path: string): void {
  const known = upgradePaths.get(app);
  if (known) {
    known.add(path);
    return;
  }
  const paths = new Set([path]);
  upgradePaths.set(app, paths);
  app.server.on('upgrade', (raw: Upgrading, socket: Duplex, head: Buffer) => {
    if (!paths.has((raw.url ?? '').split('?')[0]!) || raw.headers.upgrade?.toLowerCase() !== 'websocket') {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    socket.on('error', () => socket.destroy());
    keyFromProtocol(raw.headers);
    raw[UPGRADE] = { socket, head };
    const response = new ServerResponse(raw);
    response.shouldKeepAlive = false;
    response.assignSocket(socket as Socket);
    response.on('finish', () => socket.end());
    app.routing(raw, response);
  });
}

/** True when the request is a WebSocket upgrade (a plain GET on the same path is not). */
export function isUpgrade(request: FastifyRequest): boolean {
  return (request.raw as Upgrading)[UPGRADE] !== undefined;
}

/** A socket server for one route: the key's subprotocol is never echoed, the request id goes with the handshake. */
export function relaySocketServer(ctx: AppContext): WebSocketServer {
  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: ctx.config.bodyLimits.relayBytes,
    // A client that offers only the key's subprotocol gets none.
    handleProtocols: (protocols) => [...protocols].find((protocol) => !protocol.startsWith(KEY_PROTOCOL)) ?? false,
  });
  sockets.on('headers', (headers, request) => {
    const id = (request as Upgrading).gatewayRequestId;
    if (id) headers.push(`X-Oneapi-Request-Id: ${id}`);
  });
  return sockets;
}

/**
 * Completes the handshake of an accepted upgrade: the reply is the socket's from here on. False when the client's
 * connection is already gone (`opened` is then never called).
 */
export function completeUpgrade(
  sockets: WebSocketServer,
  request: FastifyRequest,
  reply: FastifyReply,
  opened: (socket: WebSocket) => void,
): boolean {
  const upgrade = (request.raw as Upgrading)[UPGRADE]!;
  reply.hijack();
  if (upgrade.socket.destroyed || !upgrade.socket.readable || !upgrade.socket.writable) {
    upgrade.socket.destroy();
    return false;
  }
  reply.raw.detachSocket(upgrade.socket as Socket);
  (request.raw as Upgrading).gatewayRequestId = String(request.id);
  sockets.handleUpgrade(request.raw, upgrade.socket, upgrade.head, opened);
  return true;
}

/** `Sec-WebSocket-Protocol: openai-insecure-api-key.<key>` → `Authorization: Bearer <key>` when none was sent. */
function keyFromProtocol(headers: IncomingHttpHeaders): void {
  if (headers.authorization) return;
  const offered = (headers['sec-websocket-protocol'] ?? '').split(',').map((protocol) => protocol.trim());
  const key = offered.find((protocol) => protocol.startsWith(KEY_PROTOCOL))?.slice(KEY_PROTOCOL.length);
  if (key) headers.authorization = `Bearer ${key}`;
}
