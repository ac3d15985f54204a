/**
 * Addresses other URLs are appended to (callbacks, `/submit.php`, the chat-app server's API) are stored without a
 * trailing slash (spec 000 §5), whoever sends them: the console strips it before saving and the server again.
 */
const BASE_ADDRESS_KEYS = new Set(['ServerAddress', 'PayAddress', 'CustomCallbackAddress', 'WeChatServerAddress']);

export function normalizeOptionValue(key: string, value: string): string {
  return BASE_ADDRESS_KEYS.has(key) ? value.trim().replace(/\/+$/, '') : value;
}
