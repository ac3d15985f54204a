import type { ResponsesRequest } from '../../formats/responses/responses-wire.js';
import type { Provider } from '../../provider.js';
import { sendUpstream } from '../../send.js';
import type { RuntimeChannel, UpstreamCall } from '../../types.js';
import { readUpstreamError } from '../errors.js';
import { wholeResponse } from '../refusal-in-body.js';
import { joinUrl } from '../task-call.js';
import { parseCodexKey } from './credential.js';
import { gatherResponse } from './gather.js';
import { toCodexBody } from './request.js';

/**
 * A body to the Codex backend (`route` under `/backend-api/codex`); the credential's headers are added when it is
 * sent (`open`). Responses stream; a compaction answers JSON.
 */
function codexCall(channel: RuntimeChannel, body: unknown, route: '/responses' | '/responses/compact'): UpstreamCall {
  return {
    method: 'POST',
    url: joinUrl(channel.baseUrl || 'https://chatgpt.com', `/backend-api/codex${route}`),
    headers: {
      // The backend is strict about the media type: exactly application/json.
      'content-type': 'application/json',
      accept: route === '/responses' ? 'text/event-stream' : 'application/json',
      'openai-beta': 'responses=experimental',
      originator: 'codex_cli_rs',
    },
    body: JSON.stringify(body),
  };
}

/**
 * ChatGPT's Codex backend (type 57, "ChatGPT subscription"): a Responses-only upstream at
 * `/backend-api/codex/responses`, signed in with the OAuth credential JSON in the key (Bearer access token and the
 * `chatgpt-account-id` header). Responses clients reach it natively; chat clients through the chat ↔ Responses
 * conversion. It only streams, so a whole answer is gathered from the stream (gather.ts).
 */
export const codexProvider: Provider = {
  functions: {
    responses: {
      call: (channel, body, upstreamModel) =>
        codexCall(
          channel,
          toCodexBody({ ...(JSON.parse(String(body)) as ResponsesRequest), model: upstreamModel }),
          '/responses',
        ),
    },
    // Codex CLI's remote compaction (v1): the backend answers JSON, which `open` below hands back as it came.
    compact: {
      call: (channel, body, upstreamModel) =>
        codexCall(channel, { ...(JSON.parse(String(body)) as object), model: upstreamModel }, '/responses/compact'),
    },
  },
  error: (status, text) => {
    // Besides OpenAI's error shape the backend answers `{"detail": "..."}` for refused requests.
    try {
      const body = JSON.parse(text) as { detail?: unknown };
      if (typeof body.detail === 'string') return { status, message: body.detail, type: 'codex_error', code: null };
    } catch {
      // read below
    }
    return readUpstreamError(status, text);
  },
  async open(call, channel, options) {
    const credential = parseCodexKey(channel.key);
    if (!credential) {
      const message = 'codex channel: the key must be the OAuth credential JSON with access_token and account_id';
      return wholeResponse(401, JSON.stringify({ error: { message, type: 'codex_error', code: 'invalid_key' } }));
    }
    const headers = {
      ...call.headers,
      authorization: `Bearer ${credential.accessToken}`,
      'chatgpt-account-id': credential.accountId,
    };
    // On a client's WebSocket the call goes over the backend's WebSocket mode (the conveyor's `send`).
    const response = await (options.send ?? sendUpstream)({ ...call, headers }, options);
    const eventStream = String(response.headers['content-type'] ?? '').includes('text/event-stream');
    if (options.stream || response.statusCode !== 200 || !eventStream) return response;
    return gatherResponse(await response.body.text());
  },
};
