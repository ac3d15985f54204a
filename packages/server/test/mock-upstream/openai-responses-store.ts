import { type Exchange, sendJson } from './exchange.js';
import { jsonBody, openaiAuth, openaiError, openaiJsonCheck } from './openai.js';
import { bearer, exact, type Route } from './route.js';
import { countWords, isRecord, mockId, unixNow } from './text.js';

interface Stored {
  /** The API key that created it: OpenAI keeps a response to its own project. */
  key: string;
  response: Record<string, unknown>;
  input: unknown[];
}

/** Stored responses, as OpenAI keeps them (`store` defaults to true); ids are unique across mock instances. */
const stored = new Map<string, Stored>();

/** Called by `POST /v1/responses` for each response it made. */
export function storeResponse(ex: Exchange, response: Record<string, unknown>): void {
  const body = jsonBody(ex);
  if (body.store === false) return;
  const input = typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : body.input;
  stored.set(String(response.id), {
    key: bearer(ex.headers) ?? '',
    response,
    input: Array.isArray(input) ? input : [],
  });
}

const RESOURCE = /^\/v1\/responses\/(resp_[\w-]+)(\/cancel|\/input_items)?$/;

function resource(tail: '' | '/cancel' | '/input_items'): Route['match'] {
  return (path) => {
    const match = RESOURCE.exec(path);
    return match && (match[2] ?? '') === tail ? { id: match[1]! } : null;
  };
}

/** The stored response of this key, or OpenAI's 404 (another project's id reads as unknown). */
function find(ex: Exchange): Stored | null {
  const held = stored.get(ex.params.id!);
  if (held && held.key === bearer(ex.headers)) return held;
  const { status, body } = openaiError({
    status: 404,
    message: `No response found with id '${ex.params.id}'.`,
    param: 'response_id',
  });
  sendJson(ex, status, body);
  return null;
}

async function retrieve(ex: Exchange): Promise<void> {
  const held = find(ex);
  if (held) sendJson(ex, 200, held.response);
}

async function remove(ex: Exchange): Promise<void> {
  const held = find(ex);
  if (!held) return;
  stored.delete(ex.params.id!);
  sendJson(ex, 200, { id: ex.params.id, object: 'response', deleted: true });
}

async function cancel(ex: Exchange): Promise<void> {
  const held = find(ex);
  if (!held) return;
  if (held.response.background !== true) {
    const { status, body } = openaiError({
      status: 400,
      message: 'Only responses created with background=true can be cancelled.',
    });
    sendJson(ex, status, body);
    return;
  }
  held.response = { ...held.response, status: 'cancelled' };
  sendJson(ex, 200, held.response);
}

async function inputItems(ex: Exchange): Promise<void> {
  const held = find(ex);
  if (!held) return;
  const data = held.input.map((item, index) => ({ id: `msg_in${index}`, ...(isRecord(item) ? item : {}) }));
  const ordered = ex.query.order === 'asc' ? data : [...data].reverse();
  sendJson(ex, 200, {
    object: 'list',
    data: ordered,
    first_id: ordered[0]?.id ?? null,
    last_id: ordered.at(-1)?.id ?? null,
    has_more: false,
  });
}

/**
 * `POST /v1/responses/compact`: the items condensed to the user's messages plus one opaque `compaction` item, with
 * usage (input counted in words, as the other mock routes count).
 */
async function compact(ex: Exchange): Promise<void> {
  const body = jsonBody(ex);
  const items = Array.isArray(body.input) ? body.input.filter(isRecord) : [];
  const kept = items.filter((item) => item.role === 'user');
  const words = countWords(JSON.stringify(body.input ?? '')) + countWords(String(body.instructions ?? ''));
  sendJson(ex, 200, {
    id: mockId('resp_'),
    object: 'response.compaction',
    created_at: unixNow(),
    output: [...kept, { id: mockId('cmp_'), type: 'compaction', encrypted_content: `sealed:${items.length}` }],
    usage: {
      input_tokens: words,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 7,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: words + 7,
    },
  });
}

export const openaiStoredResponseRoutes: Route[] = [
  {
    key: 'openai.responses.compact',
    method: 'POST',
    match: exact('/v1/responses/compact'),
    error: openaiError,
    check: (ex) => openaiJsonCheck(ex, ['model']),
    handle: compact,
  },
  {
    key: 'openai.responses.stored',
    method: 'GET',
    match: resource(''),
    error: openaiError,
    check: openaiAuth,
    handle: retrieve,
  },
  {
    key: 'openai.responses.stored',
    method: 'DELETE',
    match: resource(''),
    error: openaiError,
    check: openaiAuth,
    handle: remove,
  },
  {
    key: 'openai.responses.stored',
    method: 'POST',
    match: resource('/cancel'),
    error: openaiError,
    check: openaiAuth,
    handle: cancel,
  },
  {
    key: 'openai.responses.stored',
    method: 'GET',
    match: resource('/input_items'),
    error: openaiError,
    check: openaiAuth,
    handle: inputItems,
  },
];
