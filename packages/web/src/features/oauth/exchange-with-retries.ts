import { ApiError } from '../../lib/api';

/** Retries after a failed hand-over: 2 s, then 4 s, then 6 s (the family's callback page waits the same way). */
export const CALLBACK_RETRIES = 3;
export const RETRY_STEP_MS = 2000;

/**
 * Runs `send` and retries only when the request itself failed (network, gateway, server error). A business
 * refusal (bad state, provider said no, account banned) will not change on a second try, so it ends at once.
 */
export async function exchangeWithRetries<T>(
  send: () => Promise<T>,
  onRetry: (attempt: number) => void,
  wait: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      const retriable = error instanceof ApiError && error.kind !== 'business' && error.kind !== 'unauthorized';
      if (!retriable || attempt >= CALLBACK_RETRIES) throw error;
      onRetry(attempt + 1);
      await wait(RETRY_STEP_MS * (attempt + 1));
    }
  }
}
