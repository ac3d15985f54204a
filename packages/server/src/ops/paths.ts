/**
 * Paths for load balancers and monitoring, outside /api and the relay: no session, no per-IP limit (a health
 * check every few seconds from one address must never be refused), no setup gate, no access log.
 */
export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';
export const METRICS_PATH = '/metrics';

export const OPERATIONS_PATHS: ReadonlySet<string> = new Set([HEALTH_PATH, READY_PATH, METRICS_PATH]);
