import type { CohereMeta } from './wire.js';

// The gateway's /v1/rerank (Jina / Cohere v1 style: model, query, documents, top_n, return_documents) ↔ Cohere's
// /v2/rerank, which takes documents as plain strings and never sends them back.

interface RerankBody {
  query?: unknown;
  documents?: unknown[];
  top_n?: number;
  return_documents?: boolean;
  max_tokens_per_doc?: number;
}

/** A document as Cohere v2 reads it: strings as they are, Jina's `{text}` objects by their text, others as JSON. */
function documentText(document: unknown): string {
  if (typeof document === 'string') return document;
  const text = (document as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text : JSON.stringify(document);
}

/**
 * The Cohere rerank body. `return_documents` is the gateway's to honour (Cohere v2 has no such field): it rides
 * along in the call and the provider's `open` takes it out before sending (see `withDocuments`).
 */
export function toCohereRerank(text: string, model: string): Record<string, unknown> {
  const request = JSON.parse(text) as RerankBody;
  const body: Record<string, unknown> = {
    model,
    query: typeof request.query === 'string' ? request.query : documentText(request.query),
    documents: (request.documents ?? []).map(documentText),
  };
  if (typeof request.top_n === 'number' && request.top_n > 0) body.top_n = request.top_n;
  if (typeof request.max_tokens_per_doc === 'number') body.max_tokens_per_doc = request.max_tokens_per_doc;
  if (request.return_documents === true) body.return_documents = true;
  return body;
}

/** The call's body as Cohere takes it, and whether the answer must carry the documents back. */
export function splitReturnDocuments(body: string): { body: string; documents: string[] | null } {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return { body, documents: null };
  }
  if (parsed?.return_documents === undefined) return { body, documents: null };
  const { return_documents: wanted, ...rest } = parsed;
  const documents = wanted === true && Array.isArray(rest.documents) ? rest.documents.map(documentText) : null;
  return { body: JSON.stringify(rest), documents };
}

interface CohereRerankAnswer {
  id?: string;
  results?: Array<{ index: number; relevance_score: number; document?: unknown }>;
  meta?: CohereMeta;
}

/** Each result gets its document back as `{text}`, as Cohere's v1 and Jina answer. */
export function withDocuments(json: Record<string, unknown>, documents: string[]): Record<string, unknown> {
  const answer = json as CohereRerankAnswer;
  return {
    ...answer,
    results: (answer.results ?? []).map((result) => ({ ...result, document: { text: documents[result.index] ?? '' } })),
  };
}

/**
 * Cohere's rerank answer in the gateway's shape. Cohere bills rerank by search units (one query over up to 100
 * documents), not tokens: the usage reports them as the prompt, so the model's ratio is the price of one search unit.
 * An answer without billed units leaves the counting to the conveyor.
 */
export function fromCohereRerank(json: Record<string, unknown>, model: string): Record<string, unknown> {
  const answer = json as CohereRerankAnswer;
  const converted: Record<string, unknown> = {
    id: answer.id,
    model,
    results: (answer.results ?? []).map((result) => ({
      index: result.index,
      relevance_score: result.relevance_score,
      ...(result.document !== undefined ? { document: result.document } : {}),
    })),
  };
  const units = answer.meta?.billed_units?.search_units;
  if (units !== undefined) {
    converted.usage = { prompt_tokens: units, completion_tokens: 0, total_tokens: units, search_units: units };
  }
  return converted;
}
