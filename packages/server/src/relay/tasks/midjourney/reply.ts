import type { FastifyReply } from 'fastify';
import { RelayError } from '../../errors.js';

// midjourney-proxy result codes: 1 submitted, 21 already exists, 22 queued; 4 is its "bad request" code, 5 unknown.
export const MJ_CODE = { Submitted: 1, Exists: 21, Queued: 22, RequestError: 4, Unknown: 5 } as const;

export function isAcceptedCode(code: unknown): boolean {
  return code === MJ_CODE.Submitted || code === MJ_CODE.Exists || code === MJ_CODE.Queued;
}

/**
 * Midjourney clients read `{code, description}` rather than the OpenAI error shape: a gateway refusal after the
 * key was accepted (bad body, no quota, no channel) is answered that way, with the real HTTP status.
 */
export function sendMjError(reply: FastifyReply, error: unknown, requestId: string): FastifyReply {
  if (!(error instanceof RelayError)) throw error;
  return reply.code(error.status).send({
    code: error.status < 500 ? MJ_CODE.RequestError : MJ_CODE.Unknown,
    description: `${error.message} (request id: ${requestId})`,
    type: error.type,
    result: null,
    error_code: error.code,
  });
}
