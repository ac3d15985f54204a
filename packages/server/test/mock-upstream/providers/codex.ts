import type { ServerResponse } from 'node:http';
import { contentText, countWords, isRecord, splitWords } from '../text.js';
import { sendJsonBody, startVendorServer, type VendorMock, vendorReply } from './vendor-server.js';

/** The OAuth credential JSON a Codex channel's key holds, with the token and account the mock accepts. */
export const CODEX_ACCESS_TOKEN = 'eyJ.mock-codex-access.token';
export const CODEX_ACCOUNT_ID = 'acc-mock-1234';
export const CODEX_KEY = JSON.stringify({
  id_token: 'eyJ.mock-id.token',
  access_token: CODEX_ACCESS_TOKEN,
  refresh_token: 'rt_mock',
  account_id: CODEX_ACCOUNT_ID,
  email: 'dev@example.com',
  type: 'codex',
  expired: '2099-01-01T00:00:00Z',
});

/** The turns of a Responses body: the `input` items (content or output) and non-empty instructions. */
function turnsOf(body: Record<string, unknown>): Array<Record<string, unknown>> {
  const turns: Array<Record<string, unknown>> = [];
  if (typeof body.instructions === 'string' && body.instructions) turns.push({ content: body.instructions });
  for (const item of body.input as unknown[])
    if (isRecord(item)) turns.push({ content: item.content ?? item.output ?? '' });
  return turns;
}

const write = (res: ServerResponse, type: string, data: Record<string, unknown>, sequence: number) =>
  res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence, ...data })}\n\n`);

/**
 * ChatGPT's Codex backend: `POST /backend-api/codex/responses` with `Authorization: Bearer <access token>` and
 * `chatgpt-account-id` (401 otherwise). It refuses what the real backend refuses: `stream` other than true, `store`
 * other than false, a missing `instructions`, an `input` that is no list, and the unsupported parameters (400 `{"detail": …}`); `[limit]`
 * in the input is the subscription's 429 `usage_limit_reached`. The answer is the Responses event stream, whose
 * `response.completed` carries the usage but (like the backend) an empty `output`.
 */
export function startCodexMock(): Promise<VendorMock> {
  let counter = 0;
  return startVendorServer((request, res) => {
    if (request.method !== 'POST' || request.path !== '/backend-api/codex/responses') {
      return sendJsonBody(res, 404, { detail: 'Not Found' });
    }
    if (
      request.headers.authorization !== `Bearer ${CODEX_ACCESS_TOKEN}` ||
      request.headers['chatgpt-account-id'] !== CODEX_ACCOUNT_ID
    ) {
      return sendJsonBody(res, 401, {
        error: {
          message: 'Your authentication token is not valid.',
          type: 'invalid_request_error',
          code: 'token_invalid',
        },
      });
    }
    const body = request.body as Record<string, unknown>;
    if (body.stream !== true) return sendJsonBody(res, 400, { detail: 'Stream must be set to true' });
    if (body.store !== false) return sendJsonBody(res, 400, { detail: 'Store must be set to false' });
    if (typeof body.instructions !== 'string') return sendJsonBody(res, 400, { detail: 'Instructions are required' });
    if (!Array.isArray(body.input)) return sendJsonBody(res, 400, { detail: 'Input must be a list' });
    for (const field of ['max_output_tokens', 'temperature', 'top_p', 'user', 'metadata']) {
      if (field in body) return sendJsonBody(res, 400, { detail: `Unsupported parameter: ${field}` });
    }
    const turns = turnsOf(body);
    if (turns.some((turn) => contentText(turn.content).includes('[limit]'))) {
      return sendJsonBody(res, 429, {
        error: {
          type: 'usage_limit_reached',
          message: 'The usage limit has been reached',
          plan_type: 'plus',
          resets_in_seconds: 3600,
        },
      });
    }
    const model = String(body.model);
    const reply = vendorReply('codex', model, turns);
    counter += 1;
    const id = `resp_codexmock${counter}`;
    const msgId = `msg_codexmock${counter}`;
    const created_at = Math.floor(Date.now() / 1000);
    const envelope = (status: string, usage: unknown) => ({
      id,
      object: 'response',
      created_at,
      status,
      error: null,
      incomplete_details: null,
      instructions: body.instructions,
      model,
      output: [],
      parallel_tool_calls: true,
      store: false,
      tool_choice: 'auto',
      tools: [],
      usage,
    });
    let sequence = 0;
    const send = (type: string, data: Record<string, unknown>) => write(res, type, data, sequence++);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    send('response.created', { response: envelope('in_progress', null) });
    send('response.in_progress', { response: envelope('in_progress', null) });
    const part = { type: 'output_text', text: reply.text, annotations: [] };
    const message = { id: msgId, type: 'message', status: 'completed', role: 'assistant', content: [part] };
    send('response.output_item.added', { output_index: 0, item: { ...message, status: 'in_progress', content: [] } });
    send('response.content_part.added', {
      item_id: msgId,
      output_index: 0,
      content_index: 0,
      part: { ...part, text: '' },
    });
    for (const delta of splitWords(reply.text)) {
      send('response.output_text.delta', { item_id: msgId, output_index: 0, content_index: 0, delta });
    }
    send('response.output_text.done', { item_id: msgId, output_index: 0, content_index: 0, text: reply.text });
    send('response.content_part.done', { item_id: msgId, output_index: 0, content_index: 0, part });
    send('response.output_item.done', { output_index: 0, item: message });
    const usage = {
      input_tokens: reply.usage!.prompt,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: countWords(reply.text),
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: reply.usage!.prompt + countWords(reply.text),
    };
    send('response.completed', { response: envelope('completed', usage) });
    res.end();
  });
}
