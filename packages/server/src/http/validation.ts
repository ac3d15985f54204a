import { isMessageCode } from '@gateway/shared';
import type { z } from 'zod';
import { ApiFailure } from './envelope.js';

/** Validates a body with a shared zod schema; the first issue's message key becomes the answer's message. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const code = issue?.message ?? '';
  throw new ApiFailure(isMessageCode(code) ? code : 'invalid_params');
}
