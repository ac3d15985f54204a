import type { ApiClient } from './client.js';
import type { TestServer } from './server.js';

/** Priced per call: 0.002 × 500 000 quota per unit = 1 000 quota per request, reserved and settled alike. */
export const PER_CALL_MODEL = 'per-call-model';
export const PER_CALL_QUOTA = 1000;

export interface RawAnswer {
  status: number;
  retryAfter: string | null;
  body: Record<string, unknown>;
}

/** A chat request over plain HTTP, so a refusal's status, Retry-After header and exact body can be read. */
export async function rawChat(
  server: TestServer,
  key: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  const response = await fetch(`${server.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model: PER_CALL_MODEL, messages: [{ role: 'user', content: 'hello there' }], ...extra }),
  });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as Record<string, unknown>,
  };
}

/** The error message of an OpenAI-shaped refusal without the "(request id: …)" suffix. */
export function refusalText(answer: RawAnswer): string {
  const error = answer.body.error as { message: string };
  return error.message.replace(/ \(request id: \w+\)$/, '');
}

/** Every node's limiter reads this clock from now on (windows and budget periods are computed from it). */
export function setClock(servers: TestServer[], at: number): void {
  for (const server of servers) server.ctx.limits.now = () => at;
}

export async function priceCallModel(root: ApiClient): Promise<void> {
  const saved = await root.put('/api/option/', { key: 'ModelPrice', value: `{"${PER_CALL_MODEL}": 0.002}` });
  if (!saved.success) throw new Error(saved.message);
}

/** Counts by status, e.g. {200: 10, 429: 90}. */
export function statusCounts(answers: RawAnswer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
  return counts;
}
