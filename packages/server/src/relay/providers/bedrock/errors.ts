import type { UpstreamError } from '../../types.js';
import { readUpstreamError } from '../errors.js';

/**
 * The status each Bedrock error means to the gateway's clients and to its retry and auto-disable rules. AWS sends
 * most with a fitting status already; the ones changed: a bad or unknown key is 403 at AWS but 401 here (the key is
 * unusable: the channel is disabled), a quota is 400 at AWS but a limit (429), a model that failed or timed out is
 * the upstream's failure (5xx), not the request's.
 */
const STATUS: Record<string, number> = {
  ThrottlingException: 429,
  ServiceQuotaExceededException: 429,
  AccessDeniedException: 403,
  UnrecognizedClientException: 401,
  InvalidSignatureException: 401,
  IncompleteSignatureException: 401,
  MissingAuthenticationTokenException: 401,
  ExpiredTokenException: 401,
  ValidationException: 400,
  ResourceNotFoundException: 404,
  ModelErrorException: 502,
  ModelStreamErrorException: 502,
  ModelTimeoutException: 504,
  ModelNotReadyException: 503,
  ServiceUnavailableException: 503,
  InternalServerException: 500,
};

/**
 * The exception's bare name from the forms AWS writes it in: `ThrottlingException:http://internal.amazon.com/…`
 * (the `x-amzn-ErrorType` header), `com.amazonaws.bedrock#ValidationException` (`__type`), `throttlingException`
 * (an event stream's `:exception-type`).
 */
export function exceptionName(raw: string): string {
  const name = raw.split(':')[0]!.split('#').at(-1)!.trim();
  return name.charAt(0).toUpperCase() + name.slice(1);
}

export function exceptionStatus(name: string, fallback: number): number {
  return STATUS[name] ?? fallback;
}

/**
 * An AWS JSON error (`{"message": …}`, the exception named in a header) as one body that names it too, for
 * `bedrockError`, which only sees the text. The status is the one the exception means here.
 */
export function refusal(
  status: number,
  text: string,
  typeHeader: string | undefined,
): { status: number; text: string } {
  let body: Record<string, unknown> | null = null;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
  } catch {
    // not JSON (a proxy's page): left as it is
  }
  const type = typeHeader || (typeof body?.__type === 'string' ? body.__type : '');
  if (!type || !body) return { status, text };
  const name = exceptionName(type);
  return { status: exceptionStatus(name, status), text: JSON.stringify({ ...body, __type: name }) };
}

/** Bedrock's error body: `message` (or `Message`) and the exception's name. */
export function bedrockError(status: number, text: string): UpstreamError {
  try {
    const body = JSON.parse(text) as { message?: unknown; Message?: unknown; __type?: unknown };
    const message = body.message ?? body.Message;
    if (typeof message === 'string') {
      const code = typeof body.__type === 'string' ? exceptionName(body.__type) : null;
      return { status, message, type: 'aws_error', code };
    }
  } catch {
    // another shape: read below
  }
  return readUpstreamError(status, text);
}
