import type { RegisterInput } from '@gateway/shared';
import { useMutation } from '@tanstack/react-query';
import { requestEnvelope } from '../../../lib/api';

export interface RegisterVariables {
  body: Partial<RegisterInput> & { username: string; password: string };
  /** The human-check result; empty when the check is off. */
  turnstile: string;
}

/** `POST /api/user/register`; resolves with the server's words for the success toast. */
export function useRegister() {
  return useMutation({
    mutationFn: ({ body, turnstile }: RegisterVariables) =>
      requestEnvelope<unknown>('POST', '/api/user/register', { body, query: { turnstile } }),
  });
}
