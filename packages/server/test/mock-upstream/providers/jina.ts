import type { ServerResponse } from 'node:http';
import { embeddingBase64, embeddingFor } from '../text.js';
import { documentText, rankDocuments, wordsIn } from './rerank-score.js';
import { sendJsonBody, startVendorServer, type VendorMock, type VendorRequest } from './vendor-server.js';

/** The key the mock accepts. */
export const JINA_KEY = 'jina_mockkey';

const refuse = (res: ServerResponse, status: number, detail: unknown) => sendJsonBody(res, status, { detail });

/** FastAPI's answer to a body that fails validation. */
const missing = (res: ServerResponse, field: string) =>
  refuse(res, 422, [{ type: 'missing', loc: ['body', field], msg: 'Field required', input: null }]);

const LIMIT = 'Rate limit exceeded for your API key: 500 requests per minute. Please retry later.';

/** An input item's text: Jina takes strings and `{text}` objects (images, `{image}`, count as no words here). */
const inputTexts = (input: unknown) => (Array.isArray(input) ? input : [input]).map(documentText);

function embeddings(request: VendorRequest, res: ServerResponse) {
  const body = request.body as Record<string, unknown>;
  if (!body.model) return missing(res, 'model');
  if (body.input === undefined) return missing(res, 'input');
  const texts = inputTexts(body.input);
  if (texts.some((text) => text.includes('[limit]'))) return refuse(res, 429, LIMIT);
  const format = body.embedding_type ?? 'float';
  if (format !== 'float' && format !== 'base64') return refuse(res, 400, `Unsupported embedding_type: ${format}`);
  // Matryoshka models cut the vector to the dimensions asked for.
  const size = typeof body.dimensions === 'number' ? body.dimensions : undefined;
  const tokens = wordsIn(texts);
  sendJsonBody(res, 200, {
    model: body.model,
    object: 'list',
    usage: { total_tokens: tokens, prompt_tokens: tokens },
    data: texts.map((text, index) => {
      const vector = embeddingFor(text).slice(0, size);
      return { object: 'embedding', index, embedding: format === 'base64' ? embeddingBase64(vector) : vector };
    }),
  });
}

function rerank(request: VendorRequest, res: ServerResponse) {
  const body = request.body as Record<string, unknown>;
  if (!body.model) return missing(res, 'model');
  if (typeof body.query !== 'string') return missing(res, 'query');
  if (!Array.isArray(body.documents)) return missing(res, 'documents');
  if (body.query.includes('[limit]')) return refuse(res, 429, LIMIT);
  const documents = body.documents.map(documentText);
  const ranked = rankDocuments(body.query, documents, typeof body.top_n === 'number' ? body.top_n : undefined);
  // Jina returns the documents unless told not to.
  const withDocuments = body.return_documents !== false;
  sendJsonBody(res, 200, {
    model: body.model,
    // Every document is read together with the query.
    usage: { total_tokens: wordsIn(documents) + wordsIn([body.query]) * documents.length },
    results: ranked.map((result) =>
      withDocuments ? { ...result, document: { text: documents[result.index] } } : result,
    ),
  });
}

/**
 * Jina AI's API: `POST /v1/embeddings` (OpenAI's shape; the output format is `embedding_type`, float or base64;
 * `dimensions` cuts the vector) and `POST /v1/rerank` (documents returned unless `return_documents: false`), with
 * `Authorization: Bearer <key>`. Refusals are FastAPI's `{detail}`: a wrong key 401, `[limit]` in a text 429, a
 * missing field 422 with the validation list. Usage: words as tokens.
 */
export function startJinaMock(): Promise<VendorMock> {
  return startVendorServer((request, res) => {
    if (request.headers.authorization !== `Bearer ${JINA_KEY}`) {
      return refuse(res, 401, 'Invalid API key. Please get a new one from https://jina.ai');
    }
    if (request.method === 'POST' && request.path === '/v1/embeddings') return embeddings(request, res);
    if (request.method === 'POST' && request.path === '/v1/rerank') return rerank(request, res);
    return refuse(res, 404, 'Not Found');
  });
}
