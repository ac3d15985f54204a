/** The three client formats the relay answers, and one minimal request of each, for tests that cross them. */
export type Format = 'openai' | 'claude' | 'gemini';

export interface ClientCall {
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A one-message request in a client format: the route, the key where that format's SDK sends it, the body. */
export function clientRequest(format: Format, model: string, key: string, stream: boolean): ClientCall {
  const messages = [{ role: 'user', content: 'hi' }];
  if (format === 'openai') {
    return {
      path: '/v1/chat/completions',
      headers: { authorization: `Bearer ${key}` },
      body: { model, messages, stream },
    };
  }
  if (format === 'claude') {
    return {
      path: '/v1/messages',
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' },
      body: { model, max_tokens: 20, messages, stream },
    };
  }
  return {
    path: `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
    headers: { 'x-goog-api-key': key },
    body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
  };
}
