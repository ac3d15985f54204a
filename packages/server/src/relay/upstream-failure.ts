import type { IncomingHttpHeaders } from 'node:http';
import type { Language, MessageCode } from '@gateway/shared';
import type { AnswerTooLarge } from './answer-limits.js';
import { RelayError, redactChannelKeys } from './errors.js';
import type { UpstreamError } from './types.js';

/**
 * The one place that turns whatever went wrong upstream into the caller's error. The caller gets a status in the
 * error range and a generic message: an error page from a CDN or proxy, a library's words ("connect ECONNREFUSED
 * 10.0.0.5:443", "getaddrinfo ENOTFOUND") or a redirect's target would only show the gateway's hosts and insides.
 * What really happened goes to `detail`, which only the admin's error log keeps (channel keys blanked).
 */

type Keyed = { key: string; keys?: readonly string[] };

const DETAIL_LENGTH = 500;
/** undici's and Node's codes for a wait that ran out (connecting, the answer's head, a pause in its body). */
const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);

function detailOf(text: string, channel: Keyed): string {
  return redactChannelKeys(text.slice(0, DETAIL_LENGTH), channel);
}

/** A library error as an admin wants to read it: its code, its message and what caused it. */
export function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${typeof code === 'string' && !error.message.includes(code) ? `${code}: ` : ''}${error.message}${cause}`;
}

function timedOut(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && TIMEOUT_CODES.has(code);
}

function generic(status: number, lang: Language, message: MessageCode, code: string): RelayError {
  return RelayError.worded(status, lang, { code: message }, 'upstream_error', code);
}

/**
 * No answer came: the name does not resolve, TLS fails, the connection is refused or reset, the wait runs out, or
 * the base URL is malformed (502, a timeout 504). Retried on another channel like any network failure.
 */
export function unreachableUpstream(error: unknown, channel: Keyed, lang: Language): RelayError {
  const failure = timedOut(error)
    ? generic(504, lang, 'relay_upstream_timeout', 'upstream_timeout')
    : generic(502, lang, 'relay_upstream_unavailable', 'upstream_unreachable');
  failure.detail = detailOf(describeFailure(error), channel);
  return failure;
}

/** The answer began and then broke off (reset, a pause longer than the timeout) before the client had any of it. */
export function brokenAnswer(error: unknown, channel: Keyed, lang: Language): RelayError {
  const failure = timedOut(error)
    ? generic(504, lang, 'relay_upstream_timeout', 'upstream_timeout')
    : generic(502, lang, 'relay_upstream_interrupted', 'upstream_interrupted');
  failure.detail = detailOf(describeFailure(error), channel);
  return failure;
}

/** An answer as an admin reads it: its status and the start of its body. */
export function answerDetail(statusCode: number, body: string, channel: Keyed): string {
  return detailOf(`HTTP ${statusCode}: ${body || '(empty body)'}`, channel);
}

/** A 2xx whose body is not an answer of the endpoint: broken or cut JSON, a proxy's page, JSON of another shape. */
export function unreadableAnswer(statusCode: number, body: string, channel: Keyed, lang: Language): RelayError {
  const failure = generic(502, lang, 'relay_upstream_bad_response', 'bad_response_body');
  failure.detail = answerDetail(statusCode, body, channel);
  return failure;
}

/**
 * An answer (or one event of a stream) past its limit (answer-limits.ts): its read was aborted, so the caller gets a
 * 502 and pays nothing. Like an unreadable answer it is not retried on another channel: the upstream did answer,
 * and another try would cost the same memory and time again.
 */
export function oversizedAnswer(
  error: AnswerTooLarge,
  channel: Keyed,
  lang: Language,
  statusCode?: number,
): RelayError {
  const failure = generic(502, lang, 'relay_upstream_too_large', 'upstream_response_too_large');
  failure.detail = detailOf(statusCode === undefined ? error.message : `HTTP ${statusCode}: ${error.message}`, channel);
  return failure;
}

/**
 * The status the caller gets for an upstream error other than refused credentials (those are answered by
 * `channelUnavailable` before this is asked): a redirect (never followed: it may point anywhere) or another status
 * outside the error range is a bad gateway answer.
 */
function clientStatusOf(status: number): number {
  return status >= 400 && status <= 599 ? status : 502;
}

const CREDENTIAL_CODES = new Set(['invalid_api_key', 'account_deactivated']);
const CREDENTIAL_TYPES = new Set(['authentication_error', 'permission_error']);

/**
 * The upstream refused the channel's key or account (401/403, invalid_api_key …, Google's 400 API_KEY_INVALID): the
 * gateway's problem, never the caller's.
 */
export function rejectsChannelCredentials(upstream: UpstreamError, text = ''): boolean {
  if (upstream.status === 401 || upstream.status === 403) return true;
  if (text.includes('"API_KEY_INVALID"')) return true;
  return (upstream.code !== null && CREDENTIAL_CODES.has(String(upstream.code))) || CREDENTIAL_TYPES.has(upstream.type);
}

/**
 * The channel's credentials were refused. The caller gets a 503 with a generic message and code, never the
 * upstream's 401 "Incorrect API key" that SDKs and people read as *their* key being wrong; 503 (not 502: the upstream
 * answered properly) says "the service cannot serve this now", which is true until the admin fixes the channel or
 * another channel takes over. The upstream's words go to the admin only (error log, disable notice).
 */
function channelUnavailable(answer: { statusCode: number; text: string }, channel: Keyed, lang: Language): RelayError {
  const failure = generic(503, lang, 'relay_upstream_channel_unavailable', 'upstream_channel_unavailable');
  failure.detail = answerDetail(answer.statusCode, answer.text, channel);
  return failure;
}

/** An upstream's Retry-After (seconds, or an HTTP date), as whole seconds to pass on. */
export function retryAfterOf(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/**
 * Whether the provider's reader found the upstream's own error message in a JSON body (`{error:{message}}` and the
 * like). When it did not, its message is the raw body: a page or JSON of no known shape, shown to admins only.
 */
export function writtenForClient(upstream: UpstreamError, text: string): boolean {
  return text.trimStart().startsWith('{') && !upstream.message.trimStart().startsWith('{');
}

/**
 * An answer with a status outside 2xx. `upstream` is the provider's reading of it, its status already mapped by the
 * channel's status_code_mapping. The upstream's own error JSON (a client mistake explained) passes its message on;
 * anything else gets the status alone. A 429 carries the upstream's Retry-After when it gave one.
 */
export function upstreamRefusal(
  upstream: UpstreamError,
  answer: { statusCode: number; headers: IncomingHttpHeaders; text: string },
  channel: Keyed,
  lang: Language,
): RelayError {
  if (rejectsChannelCredentials(upstream, answer.text)) return channelUnavailable(answer, channel, lang);
  const status = clientStatusOf(upstream.status);
  const type = upstream.type || 'upstream_error';
  // The upstream's own explanation is passed on as it was written (a quoted fact, no words of ours to re-render).
  const failure = writtenForClient(upstream, answer.text)
    ? new RelayError(status, redactChannelKeys(upstream.message, channel), type, upstream.code)
    : RelayError.worded(status, lang, { code: 'relay_upstream_status', params: { status } }, type, upstream.code);
  failure.detail = answerDetail(answer.statusCode, answer.text, channel);
  if (status === 429) failure.retryAfter = retryAfterOf(answer.headers['retry-after']);
  return failure;
}
