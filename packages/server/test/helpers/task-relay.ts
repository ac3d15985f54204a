import { type MockUpstream, startMockUpstream } from '../mock-upstream/index.js';
import { type ApiClient, setupAndLogin, signedInUser } from './client.js';
import type { DialectName } from './databases.js';
import { addChannel, addToken } from './relay.js';
import { startTestServer, type TestServer } from './server.js';

/** What each user and key starts with in the async task (Midjourney, Suno) relay tests. */
export const TASK_START_QUOTA = 1_000_000;
/** One poller pass as the defaults configure it (test servers run no timed poller: main.ts starts it; tests drive it). */
export const TASK_POLL = { queryLimit: 1000, timeoutMinutes: 1440 };

/** The cast of an async task relay test: a fake upstream, one channel pointing at it, two funded users with a key each. */
export interface TaskRelayWorld {
  server: TestServer;
  mock: MockUpstream;
  root: ApiClient;
  alice: ApiClient;
  bob: ApiClient;
  aliceKey: string;
  bobKey: string;
  channelId: number;
}

export async function startTaskRelayWorld(
  dialect: DialectName,
  channel: { type: number; key: string; models: string },
): Promise<TaskRelayWorld> {
  const mock = await startMockUpstream();
  const server = await startTestServer(dialect);
  const root = await setupAndLogin(server.baseUrl);
  const channelId = await addChannel(root, { ...channel, base_url: mock.baseUrl });
  const alice = await signedInUser(server.baseUrl, server.ctx.repos, 'alice');
  const bob = await signedInUser(server.baseUrl, server.ctx.repos, 'bob');
  await server.ctx.db.kysely
    .updateTable('users')
    .set({ quota: TASK_START_QUOTA })
    .where('id', '!=', root.userId!)
    .execute();
  const aliceKey = await addToken(alice, { remain_quota: TASK_START_QUOTA });
  const bobKey = await addToken(bob, { remain_quota: TASK_START_QUOTA });
  return { server, mock, root, alice, bob, aliceKey, bobKey, channelId };
}

/** A relay call as a client sends it: JSON body when given, the answer's JSON (null when empty) and headers. */
export async function callJson<Json>(
  server: TestServer,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; json: Json; headers: Headers }> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    // The family's task answers are checked in Chinese, the language its console and the Midjourney proxy speak;
    // a caller without Accept-Language gets English (task-language.test.ts).
    headers: {
      'accept-language': 'zh',
      ...headers,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : null) as Json, headers: response.headers };
}
