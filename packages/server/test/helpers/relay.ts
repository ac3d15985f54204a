import { LogType } from '@gateway/shared';
import OpenAI from 'openai';
import type { ApiClient } from './client.js';
import type { TestServer } from './server.js';

/** Creates a channel through the admin API and returns its id. */
export async function addChannel(admin: ApiClient, fields: Record<string, unknown>): Promise<number> {
  const created = await admin.post<number[]>('/api/channel/', {
    name: `ch-${Math.random().toString(36).slice(2, 8)}`,
    group: 'default',
    ...fields,
  });
  if (!created.success) throw new Error(`channel: ${created.message}`);
  return created.data[0]!;
}

/** Creates an API token for the signed-in client and returns its `sk-` key. */
export async function addToken(client: ApiClient, fields: Record<string, unknown> = {}): Promise<string> {
  const created = await client.post<Array<{ key: string }>>('/api/token/', { name: 'relay-test', ...fields });
  if (!created.success) throw new Error(`token: ${created.message}`);
  return `sk-${created.data[0]!.key}`;
}

export function openaiClient(server: TestServer, key: string): OpenAI {
  return new OpenAI({ apiKey: key, baseURL: `${server.baseUrl}/v1`, maxRetries: 0, timeout: 20_000 });
}

/** Writes the quota ledger and the log buffer now, so the database can be compared to hand-computed values. */
export async function flushBilling(server: TestServer): Promise<void> {
  await server.ctx.ledger.flush();
  await server.ctx.logWriter.flush();
}

/** The newest consumption row of the usage log, after the billing buffers are written. */
export async function lastCallLog(server: TestServer) {
  await flushBilling(server);
  return (await server.ctx.repos.logs.list({ type: LogType.Consume }, 0, 1)).items[0]!;
}

export async function balances(server: TestServer, userId: number, tokenKey: string) {
  await flushBilling(server);
  const user = (await server.ctx.repos.users.findById(userId))!;
  const token = (await server.ctx.repos.tokens.findByKey(tokenKey.replace(/^sk-/, '')))!;
  return { user, token };
}

/** Awaits a call that must fail and returns the SDK's error (status, message, code). */
export async function apiError(
  call: Promise<unknown>,
): Promise<{ status: number; message: string; code?: string | null }> {
  try {
    await call;
  } catch (error) {
    return error as { status: number; message: string; code?: string | null };
  }
  throw new Error('expected the call to fail');
}

/** The error text without the SDK's "NNN " prefix and the gateway's "(request id: …)" suffix. */
export function plainMessage(error: { message: string }): string {
  return error.message.replace(/^\d{3} /, '').replace(/ \(request id: \w+\)$/, '');
}

/** Adds model ratios to the ModelRatio option without dropping the ones already there. */
export async function priceModels(server: TestServer, admin: ApiClient, ratios: Record<string, number>): Promise<void> {
  const current = server.ctx.options.json<Record<string, number>>('ModelRatio') ?? {};
  const saved = await admin.put('/api/option/', {
    key: 'ModelRatio',
    value: JSON.stringify({ ...current, ...ratios }),
  });
  if (!saved.success) throw new Error(saved.message);
}
