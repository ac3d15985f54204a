import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { addToken } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const dialects = await availableDialects();

// Keywords are matched literally on every engine: a NUL (SQLite cut the pattern there, PostgreSQL refused it with a
// 500) and LIKE's own wildcards never widen a search.
describe.each(dialects)('search keywords with control characters and wildcards on %s', (dialect) => {
  let server: TestServer;
  let root: ApiClient;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    root = await setupAndLogin(server.baseUrl);
    for (const name of ['alpha', 'al%pha', 'a_b', 'axb']) await addToken(root, { name });
  });
  afterAll(async () => {
    await server?.close();
  });

  const search = async (keyword: string) => {
    const answer = await root.get<Array<{ name: string }> | { items: Array<{ name: string }> }>(
      `/api/token/search?keyword=${encodeURIComponent(keyword)}`,
    );
    expect(answer.status).toBe(200);
    const rows = Array.isArray(answer.data) ? answer.data : answer.data.items;
    return rows.map((row) => row.name).sort();
  };

  it.each([
    ['al\u0000zz', []],
    ['al\u0000pha', ['alpha']],
    ['%', ['al%pha']],
    ['_', ['a_b']],
    ['a_b', ['a_b']],
    ['\u0007\u001f', ['a_b', 'al%pha', 'alpha', 'axb']],
  ])('keyword %j finds %j', async (keyword, names) => {
    expect(await search(keyword)).toEqual(names);
  });

  it('refuses nothing and leaks nothing on the other lists either', async () => {
    for (const path of [
      '/api/user/search?keyword=ro%00ot',
      '/api/channel/search?keyword=%00',
      '/api/log/self?model_name=gpt%00&p=1',
      '/api/redemption/search?keyword=%00%25',
    ]) {
      const answer = await root.get(path);
      expect(answer.status, path).toBe(200);
      expect(answer.success, `${path}: ${answer.message}`).toBe(true);
    }
  });
});
