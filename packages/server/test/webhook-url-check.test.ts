import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { startTestServer, type TestServer } from './helpers/server.js';

// A webhook that points inside the network is refused when it is saved, not only when a notice is sent: every spelling
// of a private address, non-https schemes, and names that resolve to such addresses.
describe('notification webhook addresses are checked when saved', () => {
  let server: TestServer;
  let root: ApiClient;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
  });
  afterAll(async () => {
    await server?.close();
  });

  const save = (webhook_url: string) =>
    root.put('/api/user/setting', { notify_type: 'webhook', webhook_url, quota_warning_threshold: 100000 });
  const stored = async () => JSON.parse((await root.get<{ setting: string }>('/api/user/self')).data.setting || '{}');

  it.each([
    ['http://hooks.example.com/x', 'https://'],
    ['ftp://hooks.example.com/x', 'https://'],
    ['https://127.0.0.1/hook', '内网'],
    ['https://localhost/hook', '内网'],
    ['https://10.1.2.3/hook', '内网'],
    ['https://172.16.0.9/hook', '内网'],
    ['https://192.168.1.1/hook', '内网'],
    ['https://169.254.169.254/latest/meta-data', '内网'],
    ['https://[::1]/hook', '内网'],
    ['https://[fd00::1]/hook', '内网'],
    ['https://[::ffff:127.0.0.1]/hook', '内网'],
    ['https://2130706433/hook', '内网'],
    ['https://0x7f000001/hook', '内网'],
    ['https://0177.0.0.1/hook', '内网'],
    ['https://no-such-host.invalid/hook', '无法解析'],
  ])('%s is refused', async (url, words) => {
    const before = await stored();
    const answer = await save(url);
    expect(answer.success).toBe(false);
    expect(answer.message).toContain(words);
    expect(await stored()).toEqual(before);
  });

  it('takes a public https address, and a private one once root allows private addresses', async () => {
    expect((await save('https://93.184.215.14/hook')).success).toBe(true);
    expect((await stored()).webhook_url).toBe('https://93.184.215.14/hook');
    await root.put('/api/option/', { key: 'fetch_setting.allow_private_ip', value: 'true' });
    expect((await save('https://10.1.2.3/hook')).success).toBe(true);
  });
});
