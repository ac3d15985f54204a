import type { ApiEnvelope } from '@gateway/shared';
import i18n, { currentLanguage } from './i18n';
import { clearStoredUser, getStoredUser, markSessionExpired } from './session';

/**
 * The one place that talks HTTP to the management API. It sends the family's headers, unwraps the
 * `{success, message, data}` envelope and turns every failure into an ApiError whose message is ready to show.
 * Showing it is the caller's job (the query client does it globally), so this module stays free of UI.
 */
export type ApiErrorKind = 'business' | 'unauthorized' | 'http' | 'network';

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly status: number | undefined;

  constructor(message: string, kind: ApiErrorKind, status?: number) {
    super(message);
    this.name = 'ApiError';
    this.kind = kind;
    this.status = status;
  }
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
}

type UnauthorizedHandler = () => void;

// The router swaps this for a client-side navigation; until then a full page load does the job.
let onUnauthorized: UnauthorizedHandler = () => {
  window.location.assign('/login?expired=true');
};

export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  onUnauthorized = handler;
}

function buildUrl(path: string, query: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}${path.includes('?') ? '&' : '?'}${text}` : path;
}

function buildHeaders(hasBody: boolean): Headers {
  const headers = new Headers({ 'Cache-Control': 'no-store', 'Accept-Language': currentLanguage() });
  if (hasBody) headers.set('Content-Type', 'application/json');
  const user = getStoredUser();
  if (user) headers.set('New-Api-User', String(user.id));
  return headers;
}

function prefixed(detail: string): string {
  return `${i18n.t('http.error_prefix')}${detail}`;
}

function httpError(response: Response): ApiError {
  switch (response.status) {
    case 401:
      return new ApiError(i18n.t('errors:not_logged_in'), 'unauthorized', 401);
    case 405:
      return new ApiError(i18n.t('http.demo_only'), 'http', 405);
    case 429:
      return new ApiError(i18n.t('errors:too_many_requests'), 'http', 429);
    case 500:
      return new ApiError(i18n.t('errors:internal_error'), 'http', 500);
    default:
      return new ApiError(prefixed(i18n.t('http.status', { status: response.status })), 'http', response.status);
  }
}

/**
 * A 429 says which limit was hit and a 503 that the database is out of reach (the server's message), both when to
 * come back (Retry-After): both are shown, so a person knows to wait rather than to click again or call for help.
 */
async function comeBackLater(response: Response, fallback: string): Promise<ApiError> {
  let message = fallback;
  try {
    const body = (await response.json()) as { message?: unknown };
    if (typeof body.message === 'string' && body.message) message = body.message;
  } catch {
    // not the envelope: keep the generic words
  }
  const seconds = Number(response.headers.get('retry-after'));
  const text = Number.isFinite(seconds) && seconds > 0 ? i18n.t('http.retry_after', { message, seconds }) : message;
  return new ApiError(text, 'http', response.status);
}

function handleUnauthorized(): void {
  // Mark first: clearing the user re-renders the route guard, whose own redirect must keep the "expired" note.
  if (window.location.pathname !== '/login') markSessionExpired();
  clearStoredUser();
  // A failed sign-in on the login page must not bounce the visitor to the same page with a scary banner.
  if (window.location.pathname !== '/login') onUnauthorized();
}

/** Sends one request and returns the whole envelope once `success` is true. */
export async function requestEnvelope<T>(
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<ApiEnvelope<T>> {
  const hasBody = options.body !== undefined;
  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method,
      headers: buildHeaders(hasBody),
      body: hasBody ? JSON.stringify(options.body) : undefined,
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (cause) {
    // An abort is React Query cancelling a request nobody needs any more, not an error to show.
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError(prefixed(cause instanceof Error ? cause.message : String(cause)), 'network');
  }

  if (response.status === 401) handleUnauthorized();
  if (response.status === 429) throw await comeBackLater(response, i18n.t('errors:too_many_requests'));
  if (response.status === 503) throw await comeBackLater(response, httpError(response).message);
  if (!response.ok) throw httpError(response);

  let envelope: ApiEnvelope<T>;
  try {
    envelope = (await response.json()) as ApiEnvelope<T>;
  } catch {
    throw new ApiError(prefixed(i18n.t('http.bad_response')), 'network', response.status);
  }
  if (!envelope || typeof envelope !== 'object' || typeof envelope.success !== 'boolean') {
    throw new ApiError(prefixed(i18n.t('http.bad_response')), 'network', response.status);
  }
  if (!envelope.success) {
    throw new ApiError(envelope.message || i18n.t('http.business_failed'), 'business', response.status);
  }
  return envelope;
}

/** Sends one request and returns the envelope's `data`. */
export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const envelope = await requestEnvelope<T>(method, path, options);
  return envelope.data as T;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PATCH', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
};
