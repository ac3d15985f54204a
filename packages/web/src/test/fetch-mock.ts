import { vi } from 'vitest';

/** What a mocked endpoint answers: an envelope (sent as HTTP 200 JSON), or a ready-made Response. */
export type MockAnswer = { success: boolean; message?: string; data?: unknown } | Response;
export type MockHandler = MockAnswer | ((request: RecordedRequest) => MockAnswer | Promise<MockAnswer>);

export interface RecordedRequest {
  method: string;
  path: string;
  url: URL;
  headers: Headers;
  body: unknown;
}

export function ok(data?: unknown, message = ''): MockAnswer {
  return { success: true, message, data };
}

export function fail(message: string): MockAnswer {
  return { success: false, message };
}

export function httpStatus(status: number): Response {
  return new Response('', { status });
}

/**
 * Replaces global fetch with a table of `"METHOD /path"` handlers and records every request. An unmatched
 * request fails the test loudly instead of hanging.
 */
export function mockFetch(handlers: Record<string, MockHandler>) {
  const requests: RecordedRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), window.location.origin);
    const method = (init.method ?? 'GET').toUpperCase();
    const request: RecordedRequest = {
      method,
      path: url.pathname,
      url,
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    requests.push(request);
    const handler = handlers[`${method} ${url.pathname}`];
    if (handler === undefined) throw new Error(`unexpected request ${method} ${url.pathname}`);
    const answer = typeof handler === 'function' ? await handler(request) : handler;
    if (answer instanceof Response) return answer.clone();
    return new Response(JSON.stringify(answer), { status: 200, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, requests };
}
