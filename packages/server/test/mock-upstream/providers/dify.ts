import type { ServerResponse } from 'node:http';
import { splitWords } from '../text.js';
import type { MultipartBody } from '../types.js';
import { asksForLimit, sendJsonBody, startVendorServer, type VendorMock, vendorReply } from './vendor-server.js';

/** The app key the mock accepts. */
export const DIFY_KEY = 'app-mockdifykey';
/** The mock app's name: its reply is `Hello from dify mock: chat-app` (a Dify app has no model name). */
export const DIFY_APP = 'chat-app';
/** The key of the mock's agent app, which refuses blocking mode as Dify's agent apps do. */
export const DIFY_AGENT_KEY = 'app-mockdifyagent';
/** The thought the agent app streams before its answer. */
export const DIFY_AGENT_THOUGHT = 'The user greets me; I answer in kind.';

/** The turns folded into a query as `SYSTEM: \n…\n` / `USER: \n…\n` / `ASSISTANT: \n…\n` blocks. */
function turnsOf(query: string): Array<Record<string, unknown>> {
  return query
    .split(/^(?:SYSTEM|USER|ASSISTANT): \n/m)
    .slice(1)
    .map((content) => ({ content }));
}

const sse = (res: ServerResponse, data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);

/**
 * A Dify chatflow app's service API with the app key as Bearer: `POST /v1/files/upload` (multipart `file` and
 * `user`) keeps an image and answers its id, which a chat may then attach as a `local_file` of the same user;
 * `POST /v1/chat-messages` answers the chat. `response_mode:
 * blocking` answers one JSON message; `streaming` sends data-only events (workflow and node progress, one `message`
 * event per word, `message_end` with the usage). Errors are `{code, message, status}`: a wrong key 401, `[limit]` in
 * the query 429; `[break]` streams two words and then an `error` event. With DIFY_AGENT_KEY it is an agent app:
 * blocking is refused with Dify's 400, a stream carries an `agent_thought` and `agent_message` events.
 */
export function startDifyMock(): Promise<VendorMock> {
  const uploads = new Map<string, { user: string; mime: string; size: number }>();
  return startVendorServer((request, res) => {
    const agent = request.headers.authorization === `Bearer ${DIFY_AGENT_KEY}`;
    if (!agent && request.headers.authorization !== `Bearer ${DIFY_KEY}` && request.path.startsWith('/v1/')) {
      return sendJsonBody(res, 401, { code: 'unauthorized', message: 'Access token is invalid', status: 401 });
    }
    if (request.method === 'POST' && request.path === '/v1/files/upload') {
      const form = request.body as MultipartBody;
      const file = form.files?.find((part) => part.field === 'file');
      if (!file || !form.fields.user) {
        return sendJsonBody(res, 400, { code: 'no_file_uploaded', message: 'Please upload your file.', status: 400 });
      }
      const id = `file-mock-${uploads.size + 1}`;
      uploads.set(id, { user: form.fields.user, mime: file.contentType, size: file.size });
      return sendJsonBody(res, 201, {
        id,
        name: file.filename,
        size: file.size,
        extension: file.filename.split('.').pop(),
        mime_type: file.contentType,
        created_by: 'end-user-mock',
        created_at: Math.floor(Date.now() / 1000),
      });
    }
    if (request.method !== 'POST' || request.path !== '/v1/chat-messages') {
      return sendJsonBody(res, 404, { code: 'not_found', message: 'The requested URL was not found.', status: 404 });
    }
    const body = request.body as {
      query?: string;
      response_mode?: string;
      user?: string;
      files?: Array<{ transfer_mode?: string; upload_file_id?: string }>;
    };
    if (typeof body.query !== 'string' || !body.user) {
      return sendJsonBody(res, 400, { code: 'invalid_param', message: 'query and user are required', status: 400 });
    }
    for (const file of body.files ?? []) {
      // An uploaded file belongs to the end user who uploaded it.
      const held = file.transfer_mode === 'local_file' ? uploads.get(file.upload_file_id ?? '') : null;
      if (file.transfer_mode === 'local_file' && held?.user !== body.user) {
        return sendJsonBody(res, 400, { code: 'invalid_param', message: 'Invalid upload file id', status: 400 });
      }
    }
    const turns = turnsOf(body.query);
    if (asksForLimit(turns)) {
      return sendJsonBody(res, 429, {
        code: 'rate_limit_error',
        message: 'Rate Limit Error: the app request limit was reached',
        status: 429,
      });
    }
    const reply = vendorReply('dify', DIFY_APP, turns);
    const usage = {
      prompt_tokens: reply.usage!.prompt,
      prompt_unit_price: '0.001',
      completion_tokens: reply.usage!.completion,
      total_tokens: reply.usage!.prompt + reply.usage!.completion,
      total_price: '0.0000150',
      currency: 'USD',
      latency: 0.42,
    };
    const ids = { task_id: 'task-mock', message_id: 'msg-mock', conversation_id: 'conv-mock' };
    const created_at = Math.floor(Date.now() / 1000);
    if (agent && body.response_mode !== 'streaming') {
      return sendJsonBody(res, 400, {
        code: 'invalid_param',
        message: 'Agent Chat App does not support blocking mode',
        status: 400,
      });
    }
    if (body.response_mode !== 'streaming') {
      return sendJsonBody(res, 200, {
        event: 'message',
        ...ids,
        id: ids.message_id,
        mode: 'advanced-chat',
        answer: reply.text,
        metadata: { usage, retriever_resources: [] },
        created_at,
      });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const run = { workflow_run_id: 'run-mock', ...ids };
    sse(res, { event: 'workflow_started', ...run, data: { id: 'run-mock', workflow_id: 'wf-mock', created_at } });
    sse(res, { event: 'node_started', ...run, data: { id: 'n1', node_id: 'llm', node_type: 'llm', title: 'LLM' } });
    if (agent) sse(res, { event: 'agent_thought', ...ids, id: 'thought-1', position: 1, thought: DIFY_AGENT_THOUGHT });
    const words = splitWords(reply.text);
    for (const [index, word] of words.entries()) {
      if (index === 2 && body.query.includes('[break]')) {
        sse(res, {
          event: 'error',
          ...ids,
          status: 500,
          code: 'completion_request_error',
          message: 'model provider broke off',
        });
        res.end();
        return;
      }
      sse(res, { event: agent ? 'agent_message' : 'message', ...ids, id: ids.message_id, answer: word, created_at });
    }
    sse(res, {
      event: 'node_finished',
      ...run,
      data: { id: 'n1', node_id: 'llm', node_type: 'llm', status: 'succeeded' },
    });
    sse(res, {
      event: 'workflow_finished',
      ...run,
      data: { id: 'run-mock', workflow_id: 'wf-mock', status: 'succeeded' },
    });
    sse(res, { event: 'message_end', ...ids, id: ids.message_id, metadata: { usage, retriever_resources: [] } });
    res.end();
  });
}
