import type { Provider } from './provider.js';
import type { UpstreamError } from './types.js';

// Errors that mean "this channel's credentials or account are unusable", not "this request was bad".
const DISABLE_CODES = new Set(['invalid_api_key', 'account_deactivated', 'billing_not_active']);
const DISABLE_TYPES = new Set(['insufficient_quota', 'authentication_error', 'permission_error', 'forbidden']);

/**
 * Whether an upstream error should take the channel out of rotation (family rules): status 401, known account
 * error codes and types, the provider's own signs (`disablesChannel`), or a message containing one of the admin's
 * keywords (case-insensitive).
 */
export function shouldDisableChannel(error: UpstreamError, provider: Provider | undefined, keywords: string): boolean {
  if (error.status === 401) return true;
  if (provider?.disablesChannel?.(error)) return true;
  if (error.code && DISABLE_CODES.has(error.code)) return true;
  if (DISABLE_TYPES.has(error.type)) return true;
  const message = error.message.toLowerCase();
  return keywords
    .split('\n')
    .map((keyword) => keyword.trim().toLowerCase())
    .some((keyword) => keyword !== '' && message.includes(keyword));
}
