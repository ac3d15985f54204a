import type { TFunction } from 'i18next';

/**
 * What to tell the user when a passkey ceremony fails: a dismissed or timed-out browser prompt is not an error worth
 * a red message, a server refusal already speaks the user's language, anything else is the browser's reason.
 */
export function passkeyErrorText(t: TFunction, error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'AbortError') return t('passkey.cancelled');
  if (name === 'InvalidStateError') return t('passkey.already_on_device');
  return error instanceof Error && error.message ? error.message : t('passkey.failed');
}
