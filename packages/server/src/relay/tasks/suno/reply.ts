import type { FastifyReply } from 'fastify';
import { RelayError } from '../../errors.js';

/** Suno clients read `{code, message, data}`; a gateway refusal after the key was accepted is answered that way. */
export function sendSunoError(reply: FastifyReply, error: unknown, requestId: string): FastifyReply {
  if (!(error instanceof RelayError)) throw error;
  return reply.code(error.status).send({
    code: error.code ?? 'new_api_error',
    message: `${error.message} (request id: ${requestId})`,
    data: null,
  });
}
