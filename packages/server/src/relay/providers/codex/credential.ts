/** What a Codex channel's key holds: the OAuth credential of a ChatGPT sign-in (as Codex CLI stores it). */
export interface CodexCredential {
  accessToken: string;
  accountId: string;
}

/**
 * The key is the credential JSON (`access_token`, `account_id`, and `refresh_token`, `id_token`, `expired`… that
 * the refresh uses); null when it is not one with both fields the backend needs.
 */
export function parseCodexKey(key: string): CodexCredential | null {
  const trimmed = key.trim();
  if (!trimmed.startsWith('{')) return null;
  try {
    const json = JSON.parse(trimmed) as { access_token?: unknown; account_id?: unknown };
    const accessToken = typeof json.access_token === 'string' ? json.access_token.trim() : '';
    const accountId = typeof json.account_id === 'string' ? json.account_id.trim() : '';
    return accessToken && accountId ? { accessToken, accountId } : null;
  } catch {
    return null;
  }
}
