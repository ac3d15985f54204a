import type { ServerResponse } from 'node:http';
import { contentText, countWords, embeddingBase64, embeddingFor, mockId, splitWords } from '../text.js';
import { documentText, rankDocuments, wordsIn } from './rerank-score.js';
import {
  asksForLimit,
  sendJsonBody,
  startVendorServer,
  type VendorMock,
  type VendorRequest,
  vendorReply,
} from './vendor-server.js';

/** The key the mock accepts. */
export const COHERE_KEY = 'cohere-mock-key';

/**
 * The tokens Cohere's prompt template adds around the messages: counted in `usage.tokens.input_tokens`, never in
 * `usage.billed_units`. A gateway that bills `tokens` would charge these too.
 */
export const COHERE_TEMPLATE_TOKENS = 200;

const API_VERSION = { version: '2' };

type Turn = Record<string, unknown>;

interface ChatBody {
  model?: string;
  messages?: Turn[];
  stream?: boolean;
  tools?: Array<{ type?: string; function?: { name?: string } }>;
  tool_choice?: string;
  max_tokens?: number;
}

const refuse = (res: ServerResponse, status: number, message: string) =>
  sendJsonBody(res, status, { id: mockId('err-'), message });

/**
 * What the model "does": with tools offered after a user turn (and tool_choice not NONE) it calls the first one
 * with `{"query": <the user's text>}` after a one-sentence plan; otherwise it says the mock's sentence, cut to
 * `max_tokens` words (finish MAX_TOKENS) when that is smaller.
 */
function planAnswer(body: ChatBody) {
  const turns = body.messages ?? [];
  const model = body.model ?? '';
  const reply = vendorReply('cohere', model, turns);
  const last = turns.at(-1);
  const tool = body.tools?.[0]?.function?.name;
  if (tool && last?.role === 'user' && body.tool_choice !== 'NONE') {
    const args = JSON.stringify({ query: contentText(last.content) });
    const plan = `I will call ${tool}.`;
    return {
      text: '',
      plan,
      call: { id: `${tool}_${mockId('call')}`, type: 'function' as const, function: { name: tool, arguments: args } },
      finish: 'TOOL_CALL',
      prompt: reply.usage!.prompt,
      completion: countWords(plan) + countWords(tool) + countWords(args),
    };
  }
  const words = splitWords(reply.text);
  const cut = typeof body.max_tokens === 'number' && body.max_tokens < words.length;
  const text = cut ? words.slice(0, body.max_tokens).join('') : reply.text;
  return {
    text,
    plan: '',
    call: null,
    finish: cut ? 'MAX_TOKENS' : 'COMPLETE',
    prompt: reply.usage!.prompt,
    completion: countWords(text),
  };
}

type Answer = ReturnType<typeof planAnswer>;

const usageOf = (answer: Answer) => ({
  billed_units: { input_tokens: answer.prompt, output_tokens: answer.completion },
  tokens: { input_tokens: answer.prompt + COHERE_TEMPLATE_TOKENS, output_tokens: answer.completion },
});

function chatAnswer(answer: Answer) {
  const message: Record<string, unknown> = { role: 'assistant' };
  if (answer.call) {
    message.tool_plan = answer.plan;
    message.tool_calls = [answer.call];
  } else message.content = [{ type: 'text', text: answer.text }];
  return { id: mockId('chat-'), message, finish_reason: answer.finish, usage: usageOf(answer) };
}

/** Cohere's v2 stream: every event's `type` is also its SSE event name. `[stream-error]` fails it midway. */
function streamChat(res: ServerResponse, answer: Answer, failMidway: boolean) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (type: string, rest: Record<string, unknown>) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...rest })}\n\n`);
  send('message-start', {
    id: mockId('chat-'),
    delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } },
  });
  if (answer.call) {
    for (const word of splitWords(answer.plan)) send('tool-plan-delta', { delta: { message: { tool_plan: word } } });
    const { id, type, function: fn } = answer.call;
    send('tool-call-start', {
      index: 0,
      delta: { message: { tool_calls: { id, type, function: { name: fn.name, arguments: '' } } } },
    });
    // Arguments arrive in pieces, as a model writes them.
    for (const piece of fn.arguments.match(/.{1,6}/gs) ?? []) {
      send('tool-call-delta', { index: 0, delta: { message: { tool_calls: { function: { arguments: piece } } } } });
    }
    send('tool-call-end', { index: 0 });
  } else {
    send('content-start', { index: 0, delta: { message: { content: { type: 'text', text: '' } } } });
    const words = splitWords(answer.text);
    for (const [position, word] of words.entries()) {
      if (failMidway && position === 2) {
        send('message-end', { delta: { finish_reason: 'ERROR', error: 'internal server error, please retry' } });
        return void res.end();
      }
      send('content-delta', { index: 0, delta: { message: { content: { text: word } } } });
    }
    send('content-end', { index: 0 });
  }
  send('message-end', { delta: { finish_reason: answer.finish, usage: usageOf(answer) } });
  res.end();
}

function chat(request: VendorRequest, res: ServerResponse) {
  const body = request.body as ChatBody;
  const turns = body.messages ?? [];
  if (!body.model || turns.length === 0) return refuse(res, 400, 'invalid request: messages must not be empty');
  if (asksForLimit(turns)) {
    return refuse(
      res,
      429,
      'You are using a Trial key, which is limited to 20 API calls / minute. You can continue to use the Trial key for free or upgrade to a Production key with higher rate limits.',
    );
  }
  const answer = planAnswer(body);
  if (!body.stream) return sendJsonBody(res, 200, chatAnswer(answer));
  streamChat(
    res,
    answer,
    turns.some((turn) => contentText(turn.content).includes('[stream-error]')),
  );
}

function embed(request: VendorRequest, res: ServerResponse) {
  const body = request.body as { model?: string; texts?: unknown[]; input_type?: string; embedding_types?: string[] };
  if (!body.input_type) {
    return refuse(res, 400, 'invalid request: valid input_type must be provided with the provided model');
  }
  const texts = (body.texts ?? []).map(String);
  if (texts.length === 0) return refuse(res, 400, 'invalid request: texts must not be empty');
  const types = body.embedding_types ?? ['float'];
  const vectors = texts.map(embeddingFor);
  const embeddings: Record<string, unknown> = {};
  if (types.includes('float')) embeddings.float = vectors;
  if (types.includes('base64')) embeddings.base64 = vectors.map(embeddingBase64);
  sendJsonBody(res, 200, {
    id: mockId('embed-'),
    texts,
    embeddings,
    meta: { api_version: API_VERSION, billed_units: { input_tokens: wordsIn(texts) } },
    response_type: 'embeddings_by_type',
  });
}

function rerank(request: VendorRequest, res: ServerResponse) {
  const body = request.body as { model?: string; query?: unknown; documents?: unknown[]; top_n?: number };
  const documents = body.documents ?? [];
  // v2 takes documents as strings only (v1 also took objects).
  if (documents.some((document) => typeof document !== 'string')) {
    return refuse(res, 400, 'invalid request: documents must be a list of strings');
  }
  if (typeof body.query !== 'string' || !body.query)
    return refuse(res, 400, 'invalid request: query must not be empty');
  sendJsonBody(res, 200, {
    id: mockId('rerank-'),
    results: rankDocuments(body.query, documents.map(documentText), body.top_n),
    // One search unit is one query over up to 100 documents.
    meta: { api_version: API_VERSION, billed_units: { search_units: Math.max(1, Math.ceil(documents.length / 100)) } },
  });
}

const MODELS = ['command-a-03-2025', 'command-r7b-12-2024', 'embed-v4.0', 'rerank-v3.5'];

/**
 * Cohere's v2 API: `POST /v2/chat` (JSON, or SSE with `stream: true`), `/v2/embed`, `/v2/rerank`, and
 * `GET /v1/models`, with `Authorization: Bearer <key>`. Refusals are `{id, message}`: a wrong key 401
 * `invalid api token`, `[limit]` in a chat 429. Usage reports billed units apart from the tokens the model read
 * (COHERE_TEMPLATE_TOKENS more).
 */
export function startCohereMock(): Promise<VendorMock> {
  return startVendorServer((request, res) => {
    if (request.headers.authorization !== `Bearer ${COHERE_KEY}`) return refuse(res, 401, 'invalid api token');
    const route = `${request.method} ${request.path}`;
    switch (route) {
      case 'POST /v2/chat':
        return chat(request, res);
      case 'POST /v2/embed':
        return embed(request, res);
      case 'POST /v2/rerank':
        return rerank(request, res);
      case 'GET /v1/models':
        return sendJsonBody(res, 200, {
          models: MODELS.map((name) => ({
            name,
            endpoints: [name.split('-')[0] === 'command' ? 'chat' : name.split('-')[0]],
          })),
        });
      default:
        return refuse(res, 404, `route not found: ${route}`);
    }
  });
}
