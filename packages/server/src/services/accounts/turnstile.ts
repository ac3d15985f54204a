import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { AppContext } from '../../context.js';
import { ApiFailure } from '../../http/envelope.js';
import { clientIp } from '../../http/request-ip.js';

const VERIFY_TIMEOUT_MS = 10_000;

/** The field of Cloudflare's siteverify answer we rely on. */
interface SiteverifyAnswer {
  success?: unknown;
}

/**
 * Asks the siteverify endpoint whether a widget token is genuine (form post of secret, response and remoteip, as
 * Cloudflare documents it). Anything but a clear yes is a no; an unreachable endpoint throws so it gets logged.
 */
export async function verifyTurnstileToken(
  verifyUrl: string,
  secret: string,
  token: string,
  remoteIp: string,
): Promise<boolean> {
  const response = await fetch(verifyUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ secret, response: token, remoteip: remoteIp }).toString(),
    signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`siteverify answered HTTP ${response.status}`);
  const answer = (await response.json()) as SiteverifyAnswer;
  return answer.success === true;
}

/**
 * Route guard for sign-in, registration, reset and code mails when the operator turned the human check on:
 * `?turnstile=` must hold a token the siteverify endpoint accepts. An empty token means the widget has not
 * finished yet, which gets the family's "wait a few seconds" answer rather than a failure.
 */
export function turnstileCheck(ctx: AppContext): preHandlerAsyncHookHandler {
  return async (request: FastifyRequest) => {
    if (!ctx.options.bool('TurnstileCheckEnabled')) return;
    const token = (request.query as { turnstile?: unknown } | undefined)?.turnstile;
    if (typeof token !== 'string' || token.trim() === '') throw new ApiFailure('turnstile_pending');
    const ip = clientIp(request, ctx.config.trustedProxies);
    let valid = false;
    try {
      valid = await verifyTurnstileToken(
        ctx.config.turnstileVerifyUrl,
        ctx.options.get('TurnstileSecretKey'),
        token.trim(),
        ip,
      );
    } catch (error) {
      request.log.warn({ err: error, reqId: request.id }, 'turnstile siteverify unreachable');
    }
    if (!valid) throw new ApiFailure('turnstile_failed');
  };
}
