import type { ServerOptions } from 'node:http';

/** How long a client may take over its request and keep an idle connection, and how many it may hold open. */
export interface ServerLimits {
  /** From a connection's (or a request's) first byte to the end of its headers (HTTP_HEADERS_TIMEOUT). */
  headersTimeoutMs: number;
  /** From a request's first byte to the end of its body (HTTP_REQUEST_TIMEOUT): a stalled upload ends here. */
  requestTimeoutMs: number;
  /** An idle connection between two requests (HTTP_KEEP_ALIVE_TIMEOUT). */
  keepAliveTimeoutMs: number;
  /** Connections open at once from one client address (MAX_CONNECTIONS_PER_IP; 0 = no limit). */
  maxConnectionsPerIp: number;
}

/** How often Node looks for requests past their headers or request timeout: whichever is shorter, in steps. */
function checkingIntervalMs(limits: ServerLimits): number {
  const shortest = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return Math.min(1000, Math.max(50, Math.floor(shortest / 4)));
}

/**
 * Fastify's server options for the limits. Only the request side is timed: once a request is read, Node takes it
 * off the timed list, so an answer streamed for many minutes is never cut (the upstream's pauses are bounded by
 * RELAY_TIMEOUT instead). For the same reason there is no socket inactivity timeout (Fastify's
 * `connectionTimeout`): it would end a stream whose model thinks quietly for a while.
 */
export function serverTimeoutOptions(limits: ServerLimits): {
  requestTimeout: number;
  keepAliveTimeout: number;
  connectionTimeout: number;
  http: ServerOptions;
} {
  return {
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionTimeout: 0,
    // Fastify creates the server with these; Node checks the two timeouts only every `connectionsCheckingInterval`
    // (30 s by default, which would let a small timeout run half a minute over).
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: checkingIntervalMs(limits),
    },
  };
}
