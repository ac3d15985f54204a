import { describe, expect, it } from 'vitest';
import { toJinaEmbeddings } from './embeddings.js';
import { jinaError } from './error.js';

describe('Jina embeddings body', () => {
  it.each([
    // The OpenAI SDK's default: base64, which Jina calls embedding_type.
    [
      { model: 'm', input: ['a'], encoding_format: 'base64' },
      { model: 'm', input: ['a'], embedding_type: 'base64' },
    ],
    [
      { model: 'm', input: 'a', encoding_format: 'float', task: 'retrieval.query', dimensions: 256 },
      { model: 'm', input: 'a', task: 'retrieval.query', dimensions: 256, embedding_type: 'float' },
    ],
    // A client that speaks Jina's own field keeps it.
    [
      { model: 'm', input: 'a', encoding_format: 'base64', embedding_type: 'binary' },
      { model: 'm', input: 'a', embedding_type: 'binary' },
    ],
  ])('%j → %j', (body, expected) => {
    expect(JSON.parse(toJinaEmbeddings(JSON.stringify(body)))).toEqual(expected);
  });

  it('passes a body without encoding_format (images and late chunking included) byte for byte', () => {
    const body = '{"model":"jina-clip-v2","input":[{"image":"https://x/y.png"},{"text":"a"}],"late_chunking":true}';
    expect(toJinaEmbeddings(body)).toBe(body);
  });
});

describe('Jina errors', () => {
  it.each([
    [
      401,
      '{"detail":"Invalid API key. Please get a new one from https://jina.ai"}',
      'Invalid API key. Please get a new one from https://jina.ai',
      'jina_error',
    ],
    [429, '{"detail":"Rate limit exceeded"}', 'Rate limit exceeded', 'jina_error'],
    [
      422,
      '{"detail":[{"type":"missing","loc":["body","query"],"msg":"Field required"},{"loc":["body","model"],"msg":"Field required"}]}',
      'body.query: Field required; body.model: Field required',
      'invalid_request_error',
    ],
    [
      400,
      '{"error":{"message":"Model not found","type":"invalid_request_error"}}',
      'Model not found',
      'invalid_request_error',
    ],
    [502, 'Bad Gateway', 'Bad Gateway', 'upstream_error'],
  ])('%i %s', (status, text, message, type) => {
    expect(jinaError(status, text)).toEqual({ status, message, type, code: null });
  });
});
