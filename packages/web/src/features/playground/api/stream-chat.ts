import i18n, { currentLanguage } from '../../../lib/i18n';
import { getStoredUser } from '../../../lib/session';
import type { ChatRequestBody } from '../types';

/**
 * The playground's one streaming call. `lib/api` cannot carry it (it reads whole JSON envelopes) and does not
 * export its header builder, so the family's headers are repeated here: New-Api-User, Accept-Language,
 * Cache-Control: no-store, and the session cookie (same-origin).
 */
export const PLAYGROUND_PATH = '/pg/chat/completions';

export interface ChatDelta {
  content?: string;
  reasoning?: string;
}

/** A failure with a message ready to show (an abort is not one of these: it stays a DOMException). */
export class ChatStreamError extends Error {
  readonly status: number | undefined;

  constructor(message: string, status?: number) {
    super(message);
    this.name = 'ChatStreamError';
    this.status = status;
  }
}

function buildHeaders(): Headers {
  const headers = new Headers({
    'Content-Type': 'application/json',
    Accept: 'text/event-stream',
    'Cache-Control': 'no-store',
    'Accept-Language': currentLanguage(),
  });
  const user = getStoredUser();
  if (user) headers.set('New-Api-User', String(user.id));
  return headers;
}

const prefixed = (detail: string) => `${i18n.t('http.error_prefix')}${detail}`;

/** The message inside an OpenAI error (`{error:{message}}`), an envelope (`{message}`) or a bare string. */
function errorMessageOf(value: unknown): string | null {
  if (!value || typeof value !== 'object') return null;
  const record = value as { error?: unknown; message?: unknown; success?: unknown };
  if (typeof record.error === 'string' && record.error) return record.error;
  if (record.error && typeof record.error === 'object') {
    const message = (record.error as { message?: unknown }).message;
    if (typeof message === 'string' && message) return message;
  }
  if (record.success === false && typeof record.message === 'string' && record.message) return record.message;
  return null;
}

/**
 * The server's own words when it sent any. A 401 here does not sign the user out: the relay passes an upstream
 * provider's 401 (a bad channel key) through unchanged, which looks just like an expired session. The message
 * says which it was, and the next console call redirects if the session really ended.
 */
async function httpFailure(response: Response): Promise<ChatStreamError> {
  let detail: string | null = null;
  try {
    const text = await response.text();
    try {
      detail = errorMessageOf(JSON.parse(text));
    } catch {
      detail = text.trim().slice(0, 300) || null;
    }
  } catch {
    detail = null;
  }
  if (detail) return new ChatStreamError(detail, response.status);
  if (response.status === 401) return new ChatStreamError(i18n.t('errors:not_logged_in'), 401);
  if (response.status === 429) return new ChatStreamError(i18n.t('errors:too_many_requests'), 429);
  return new ChatStreamError(prefixed(i18n.t('http.status', { status: response.status })), response.status);
}

function deltaOf(chunk: unknown): ChatDelta {
  const choice = (chunk as { choices?: Array<{ delta?: Record<string, unknown>; message?: Record<string, unknown> }> })
    ?.choices?.[0];
  const part = choice?.delta ?? choice?.message;
  if (!part) return {};
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  return { content: text(part.content), reasoning: text(part.reasoning_content) ?? text(part.reasoning) };
}

/** Reads `data:` events off an SSE body; calls `onData` per event, stops at `[DONE]` or the end of the body. */
async function readEvents(body: ReadableStream<Uint8Array>, onData: (data: string) => boolean): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  // false once `onData` asked to stop.
  const dispatch = (): boolean => {
    if (data.length === 0) return true;
    const payload = data.join('\n');
    data = [];
    return onData(payload);
  };
  const takeLines = (): boolean => {
    for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n')) {
      const line = buffer.slice(0, end).replace(/\r$/, '');
      buffer = buffer.slice(end + 1);
      if (line === '') {
        if (!dispatch()) return false;
      } else if (line.startsWith('data:')) {
        data.push(line.slice(5).replace(/^ /, ''));
      }
      // Comments (`:`), `event:`, `id:` and `retry:` lines carry nothing the playground needs.
    }
    return true;
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      if (done) buffer += '\n';
      if (!takeLines()) return;
      if (done) {
        dispatch();
        return;
      }
    }
  } finally {
    // Stops the download when we leave early ([DONE], an error event); harmless once the body has ended.
    reader.cancel().catch(() => {});
  }
}

/**
 * Sends one chat request and hands every delta to `onDelta` as it arrives. Resolves when the answer is complete
 * (a `[DONE]` event or the end of the connection); rejects with a ChatStreamError, or with the AbortError of
 * `signal` when the caller stopped it.
 */
export async function streamChat(
  body: ChatRequestBody,
  { signal, onDelta }: { signal?: AbortSignal; onDelta: (delta: ChatDelta) => void },
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(PLAYGROUND_PATH, {
      method: 'POST',
      headers: buildHeaders(),
      body: JSON.stringify(body),
      credentials: 'same-origin',
      signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ChatStreamError(prefixed(cause instanceof Error ? cause.message : String(cause)));
  }
  if (!response.ok) throw await httpFailure(response);

  const type = response.headers.get('Content-Type') ?? '';
  if (type.includes('application/json')) {
    // Not a stream after all: a business failure envelope, or a whole (non-streamed) completion.
    let value: unknown;
    try {
      value = await response.json();
    } catch {
      throw new ChatStreamError(prefixed(i18n.t('http.bad_response')), response.status);
    }
    const failure = errorMessageOf(value);
    if (failure) throw new ChatStreamError(failure, response.status);
    onDelta(deltaOf(value));
    return;
  }
  if (!response.body) return;

  const outcome: { failure: ChatStreamError | null } = { failure: null };
  await readEvents(response.body, (data) => {
    if (data.trim() === '[DONE]') return false;
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      // A line we cannot read is skipped rather than ending an otherwise good answer.
      return true;
    }
    const message = errorMessageOf(chunk);
    if (message) {
      outcome.failure = new ChatStreamError(message, response.status);
      return false;
    }
    const delta = deltaOf(chunk);
    if (delta.content || delta.reasoning) onDelta(delta);
    return true;
  });
  if (outcome.failure) throw outcome.failure;
}
