/**
 * What identifies one conversation in what agents already send, so its turns can stay on one channel (and the
 * upstream's prompt cache keeps hitting). First found wins:
 * - `prompt_cache_key` in the body (OpenAI chat and Responses; Codex sends it);
 * - `X-Claude-Code-Session-Id`, `session_id`, `conversation_id` (Codex) and `X-Session-Id` headers;
 * - Claude's `metadata.user_id`: the session of Claude Code's `user_<hash>_account_<uuid>_session_<uuid>`, or the
 *   `session_id` of the JSON form newer versions send; another value is taken whole (one user, one binding).
 * A few property reads per request and nothing when none is there. Keys are cut to 200 characters.
 */
const HEADERS = ['x-claude-code-session-id', 'session_id', 'conversation_id', 'x-session-id'] as const;
const MAX_LENGTH = 200;

export function conversationKey(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  body: unknown,
): string | null {
  const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Fields) : null;
  const cacheKey = fields?.prompt_cache_key;
  if (typeof cacheKey === 'string' && cacheKey) return cut(cacheKey);
  for (const name of HEADERS) {
    const value = headers[name];
    const text = Array.isArray(value) ? value[0] : value;
    if (text) return cut(text);
  }
  const metadata = fields?.metadata;
  const userId = typeof metadata === 'object' && metadata !== null ? (metadata as Fields).user_id : undefined;
  if (typeof userId === 'string' && userId) return cut(sessionOf(userId));
  return null;
}

interface Fields {
  prompt_cache_key?: unknown;
  metadata?: unknown;
  user_id?: unknown;
}

/** Claude Code's session inside `metadata.user_id`, or the whole value when it names none. */
export function sessionOf(userId: string): string {
  const marker = userId.lastIndexOf('_session_');
  if (marker >= 0 && marker + 9 < userId.length) return userId.slice(marker + 9);
  if (userId.startsWith('{')) {
    try {
      const parsed = JSON.parse(userId) as { session_id?: unknown };
      if (typeof parsed.session_id === 'string' && parsed.session_id) return parsed.session_id;
    } catch {
      // Not JSON after all: the value itself is the key.
    }
  }
  return userId;
}

function cut(key: string): string {
  return key.length > MAX_LENGTH ? key.slice(0, MAX_LENGTH) : key;
}
