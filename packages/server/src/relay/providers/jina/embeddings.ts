/**
 * An OpenAI embeddings body as Jina takes it. Jina answers in OpenAI's shape and reads OpenAI's fields, but names
 * the output format `embedding_type`: OpenAI's `encoding_format` (which the OpenAI SDK sets to base64 unless told
 * otherwise, then decodes) becomes it, so a base64 request gets base64 back (the same little-endian float32 bytes).
 * Jina's own fields (`task`, `dimensions`, `late_chunking`, `normalized`, image inputs…) pass through untouched.
 */
export function toJinaEmbeddings(body: string): string {
  let request: Record<string, unknown>;
  try {
    request = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return body;
  }
  if (request === null || typeof request !== 'object' || request.encoding_format === undefined) return body;
  const { encoding_format: format, ...rest } = request;
  if (rest.embedding_type === undefined && typeof format === 'string') rest.embedding_type = format;
  return JSON.stringify(rest);
}
