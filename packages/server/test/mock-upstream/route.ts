import type { OutgoingHttpHeaders } from 'node:http';
import type { Exchange } from './exchange.js';
import type { RouteKey } from './types.js';

/** What a `status` behaviour (or an auth check) asks for; each provider turns it into its own error body. */
export interface ErrorSpec {
  status: number;
  message?: string;
  type?: string;
  code?: string | null;
  param?: string | null;
}

export interface ErrorReply {
  status: number;
  body: unknown;
  headers?: OutgoingHttpHeaders;
}

export interface Route {
  key: RouteKey;
  method: 'GET' | 'POST' | 'DELETE';
  /** Path parameters when this route serves the request, else null. Headers decide between same-path providers. */
  match(path: string, headers: Record<string, string>, query: Record<string, string>): Record<string, string> | null;
  /** The provider's own error body for a status. */
  error(spec: ErrorSpec): ErrorReply;
  /** Auth and request validation; a failure is answered without consuming a queued behaviour. */
  check?(ex: Exchange): ErrorReply | null;
  handle(ex: Exchange): Promise<void>;
}

/** `/v1/chat/completions` → exact match helper. */
export function exact(...paths: string[]): Route['match'] {
  return (path) => (paths.includes(path) ? {} : null);
}

/** The token after `Bearer `, or null when the header is missing or not Bearer auth. */
export function bearer(headers: Record<string, string>): string | null {
  const match = /^Bearer\s+(\S.*)$/i.exec(headers.authorization ?? '');
  return match ? match[1].trim() : null;
}

/** Keys with a fixed meaning in every provider: tests use them to drive auto-disable and quota handling. */
export const INVALID_KEY = 'invalid-key';
export const QUOTA_KEY = 'quota-key';
