import { OPTION_DEFINITIONS, OPTION_KEYS } from '@gateway/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ROLE_REFUSED, ROOT, refusal, setupAndLogin, signedInUser } from './helpers/client.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Every option value is checked again on the server (spec 001 §5, issue 6): type, range and JSON shape. A refused
 * value is answered in the spec's words and changes nothing, in memory or in the table.
 */
describe('option validation on PUT /api/option/', () => {
  let server: TestServer;
  let root: ApiClient;

  beforeAll(async () => {
    server = await startTestServer();
    root = await setupAndLogin(server.baseUrl);
  });
  afterAll(async () => {
    await server?.close();
  });

  const LIST_MESSAGE = 'payment_setting.amount_options 必须是由正整数组成的 JSON 数组，例如 [10, 20, 50]';
  const DISCOUNT_MESSAGE =
    'payment_setting.amount_discount 必须是“充值数量 → 折扣系数”的 JSON 对象：数量为正整数，系数大于 0 且不超过 1，例如 {"100": 0.95}';
  const refused: Array<[string, string, unknown, string]> = [
    // [what, key, value, message]
    ['bool: anything but true/false', 'LogConsumeEnabled', '1', 'LogConsumeEnabled 必须是 true 或 false'],
    ['int: not a number', 'QuotaForNewUser', 'lots', 'QuotaForNewUser 必须是数字'],
    ['int: empty', 'PreConsumedQuota', '', 'PreConsumedQuota 必须是数字'],
    ['int: a fraction', 'QuotaForInvitee', '2.5', 'QuotaForInvitee 必须是整数'],
    ['int: below min', 'QuotaForInviter', '-1', 'QuotaForInviter 不能小于 0'],
    ['int: above max', 'RetryTimes', '11', 'RetryTimes 不能大于 10'],
    ['data export interval ≥ 1 min', 'DataExportInterval', '0', 'DataExportInterval 不能小于 1'],
    ['threshold ≥ 0', 'ChannelDisableThreshold', '-0.5', 'ChannelDisableThreshold 不能小于 0'],
    ['quota remind ≥ 0', 'QuotaRemindThreshold', '-5', 'QuotaRemindThreshold 不能小于 0'],
    ['number: infinity', 'Price', 'Infinity', 'Price 必须是数字'],
    ['quota per unit ≥ 1', 'QuotaPerUnit', '0', 'QuotaPerUnit 不能小于 1'],
    ['min top-up ≥ 1', 'MinTopUp', '0', 'MinTopUp 不能小于 1'],
    ['SMTP port range', 'SMTPPort', '70000', 'SMTPPort 不能大于 65535'],
    ['rate limit count ≥ 0', 'ModelRequestRateLimitCount', '-1', 'ModelRequestRateLimitCount 不能小于 0'],
    [
      'rate limit success ≥ 1',
      'ModelRequestRateLimitSuccessCount',
      '0',
      'ModelRequestRateLimitSuccessCount 不能小于 1',
    ],
    [
      'rate limit duration ≥ 0',
      'ModelRequestRateLimitDurationMinutes',
      '-1',
      'ModelRequestRateLimitDurationMinutes 不能小于 0',
    ],
    [
      'ping interval ≥ 1 s',
      'general_setting.ping_interval_seconds',
      '0',
      'general_setting.ping_interval_seconds 不能小于 1',
    ],
    [
      'gemini thinking percentage ≥ 0.1',
      'gemini.thinking_adapter_budget_tokens_percentage',
      '0.05',
      'gemini.thinking_adapter_budget_tokens_percentage 不能小于 0.1',
    ],
    [
      'claude thinking percentage ≤ 1',
      'claude.thinking_adapter_budget_tokens_percentage',
      '1.5',
      'claude.thinking_adapter_budget_tokens_percentage 不能大于 1',
    ],
    ['url: no scheme', 'ServerAddress', 'gateway.example.com', 'ServerAddress 必须是以 http:// 或 https:// 开头的地址'],
    [
      'url: other scheme',
      'oidc.well_known',
      'ftp://idp.example.com',
      'oidc.well_known 必须是以 http:// 或 https:// 开头的地址',
    ],
    ['url: javascript', 'TopUpLink', 'javascript:alert(1)', 'TopUpLink 必须是以 http:// 或 https:// 开头的地址'],
    ['enum', 'DataExportDefaultTime', 'month', 'DataExportDefaultTime 只能是以下值之一：hour, day, week'],
    ['json: not JSON', 'GroupRatio', '{default: 1}', 'GroupRatio 不是合法的 JSON 字符串'],
    ['json: ratio not a number', 'ModelRatio', '{"gpt-4o": "1.25"}', 'ModelRatio 的 JSON 结构不正确'],
    ['json: negative ratio', 'CompletionRatio', '{"gpt-4o": -4}', 'CompletionRatio 的 JSON 结构不正确'],
    ['json: price map is an array', 'ModelPrice', '[0.04]', 'ModelPrice 的 JSON 结构不正确'],
    ['json: cache ratio null', 'CacheRatio', '{"gpt-4o": null}', 'CacheRatio 的 JSON 结构不正确'],
    ['json: top-up group ratio', 'TopupGroupRatio', 'not json', 'TopupGroupRatio 不是合法的 JSON 字符串'],
    ['json: usable groups need texts', 'UserUsableGroups', '{"vip": 1}', 'UserUsableGroups 的 JSON 结构不正确'],
    ['json: chats need name → link', 'Chats', '{"a": "b"}', 'Chats 的 JSON 结构不正确'],
    [
      'rate-limit group: first below 0',
      'ModelRequestRateLimitGroup',
      '{"vip": [-1, 10]}',
      'ModelRequestRateLimitGroup 的 JSON 结构不正确',
    ],
    [
      'rate-limit group: second below 1',
      'ModelRequestRateLimitGroup',
      '{"vip": [10, 0]}',
      'ModelRequestRateLimitGroup 的 JSON 结构不正确',
    ],
    [
      'rate-limit group: three numbers',
      'ModelRequestRateLimitGroup',
      '{"vip": [10, 5, 1]}',
      'ModelRequestRateLimitGroup 的 JSON 结构不正确',
    ],
    [
      'rate-limit group: fractions',
      'ModelRequestRateLimitGroup',
      '{"vip": [1.5, 5]}',
      'ModelRequestRateLimitGroup 的 JSON 结构不正确',
    ],
    [
      'rate-limit group: above 2^31-1',
      'ModelRequestRateLimitGroup',
      '{"vip": [2147483648, 5]}',
      'ModelRequestRateLimitGroup 的 JSON 结构不正确',
    ],
    [
      'rate-limit group: empty group name',
      'ModelRequestRateLimitGroup',
      '{"": [10, 5]}',
      'ModelRequestRateLimitGroup 的 JSON 结构不正确',
    ],
    [
      'gemini safety: thresholds are texts',
      'gemini.safety_settings',
      '{"default": 1}',
      'gemini.safety_settings 的取值只能是 OFF、BLOCK_NONE、BLOCK_ONLY_HIGH、BLOCK_MEDIUM_AND_ABOVE、BLOCK_LOW_AND_ABOVE 或 HARM_BLOCK_THRESHOLD_UNSPECIFIED',
    ],
    [
      'gemini safety: only thresholds Gemini accepts',
      'gemini.safety_settings',
      '{"HARM_CATEGORY_HARASSMENT": "BLOCK_SOME"}',
      'gemini.safety_settings 的取值只能是 OFF、BLOCK_NONE、BLOCK_ONLY_HIGH、BLOCK_MEDIUM_AND_ABOVE、BLOCK_LOW_AND_ABOVE 或 HARM_BLOCK_THRESHOLD_UNSPECIFIED',
    ],
    ['gemini versions: texts', 'gemini.version_settings', '["v1"]', 'gemini.version_settings 的 JSON 结构不正确'],
    [
      'gemini imagine models: list of names',
      'gemini.supported_imagine_models',
      '[1, 2]',
      'gemini.supported_imagine_models 的 JSON 结构不正确',
    ],
    [
      'claude headers: model → header → list',
      'claude.model_headers_settings',
      '{"claude-3": {"anthropic-beta": "x"}}',
      'claude.model_headers_settings 的 JSON 结构不正确',
    ],
    [
      'claude max tokens: positive integers',
      'claude.default_max_tokens',
      '{"default": 0}',
      'claude.default_max_tokens 的 JSON 结构不正确',
    ],
    [
      'claude max tokens: whole numbers',
      'claude.default_max_tokens',
      '{"default": 8192.5}',
      'claude.default_max_tokens 的 JSON 结构不正确',
    ],
    ['quick picks: an object', 'payment_setting.amount_options', '{"10": 10}', LIST_MESSAGE],
    ['quick picks: zero', 'payment_setting.amount_options', '[0, 10]', LIST_MESSAGE],
    ['quick picks: negative', 'payment_setting.amount_options', '[10, -20]', LIST_MESSAGE],
    ['quick picks: fraction', 'payment_setting.amount_options', '[10, 20.5]', LIST_MESSAGE],
    ['quick picks: texts', 'payment_setting.amount_options', '["10", "20"]', LIST_MESSAGE],
    [
      'quick picks: not JSON',
      'payment_setting.amount_options',
      '10, 20',
      'payment_setting.amount_options 不是合法的 JSON 字符串',
    ],
    ['discount: an array', 'payment_setting.amount_discount', '[0.9]', DISCOUNT_MESSAGE],
    ['discount: factor 0', 'payment_setting.amount_discount', '{"100": 0}', DISCOUNT_MESSAGE],
    ['discount: factor above 1', 'payment_setting.amount_discount', '{"100": 1.2}', DISCOUNT_MESSAGE],
    ['discount: factor as text', 'payment_setting.amount_discount', '{"100": "0.9"}', DISCOUNT_MESSAGE],
    ['discount: amount not a whole number', 'payment_setting.amount_discount', '{"10.5": 0.9}', DISCOUNT_MESSAGE],
    ['discount: amount zero', 'payment_setting.amount_discount', '{"0": 0.9}', DISCOUNT_MESSAGE],
    ['discount: amount a word', 'payment_setting.amount_discount', '{"vip": 0.9}', DISCOUNT_MESSAGE],
    ['whitelist: not a domain', 'EmailDomainWhitelist', 'gmail.com,not a domain', 'not a domain 不是合法的域名'],
    ['whitelist: duplicate', 'EmailDomainWhitelist', 'gmail.com,qq.com,Gmail.com', '该域名已存在于白名单中'],
    [
      'switch needs its client id',
      'LinuxDOOAuthEnabled',
      'true',
      '开启 LinuxDOOAuthEnabled 之前请先填写 LinuxDOClientId',
    ],
    ['OIDC needs its client id', 'oidc.enabled', 'true', '开启 oidc.enabled 之前请先填写 oidc.client_id'],
    [
      'Turnstile needs its site key',
      'TurnstileCheckEnabled',
      'true',
      '开启 TurnstileCheckEnabled 之前请先填写 TurnstileSiteKey',
    ],
    ['unknown key', 'NoSuchOption', 'x', '未知的配置项：NoSuchOption'],
    ['value of the wrong type', 'Notice', ['a'], '配置值必须是字符串、数字或布尔值'],
  ];

  /** The one check behind every refusal: the answer in the expected words, and no option changed anywhere. */
  const expectRefused = async (client: ApiClient, key: string, value: unknown, message: string) => {
    const memory = server.ctx.options.all();
    const stored = await server.ctx.repos.options.all();
    expect(await client.put('/api/option/', { key, value })).toMatchObject({ success: false, message });
    expect(server.ctx.options.all()).toEqual(memory);
    expect(await server.ctx.repos.options.all()).toEqual(stored);
  };

  it.each(refused)('refuses %s and changes nothing', async (_what, key, value, message) => {
    await expectRefused(root, key, value, message);
  });

  describe('for an admin who reads English', () => {
    let english: ApiClient;

    beforeAll(async () => {
      english = new ApiClient(server.baseUrl, 'en');
      await english.login(ROOT.username, ROOT.password);
    });

    const refusedInEnglish: Array<[string, string, string, string]> = [
      // [what, key, value, message]
      ['a value that is not JSON', 'ModelRatio', '{', 'ModelRatio is not a valid JSON string'],
      [
        'top-up quick picks that are not positive whole numbers',
        'payment_setting.amount_options',
        '[0]',
        'payment_setting.amount_options must be a JSON array of positive whole numbers, e.g. [10, 20, 50]',
      ],
      [
        'a top-up discount factor above 1',
        'payment_setting.amount_discount',
        '{"100": 2}',
        'payment_setting.amount_discount must be a JSON object of top-up amount → price factor: amounts are positive whole numbers, factors above 0 and at most 1, e.g. {"100": 0.95}',
      ],
    ];

    it.each(refusedInEnglish)('refuses %s in English and changes nothing', async (_what, key, value, message) => {
      await expectRefused(english, key, value, message);
    });
  });

  it('accepts the boundary values the spec allows', async () => {
    const accepted: Array<[string, string]> = [
      ['ModelRequestRateLimitGroup', '{"default": [0, 1], "vip": [2147483647, 2147483647]}'],
      ['ModelRequestRateLimitCount', '0'],
      ['ModelRequestRateLimitSuccessCount', '1'],
      ['ModelRequestRateLimitDurationMinutes', '0'],
      ['general_setting.ping_interval_seconds', '1'],
      ['gemini.thinking_adapter_budget_tokens_percentage', '0.1'],
      ['claude.thinking_adapter_budget_tokens_percentage', '1'],
      ['DataExportInterval', '1'],
      ['ChannelDisableThreshold', '0'],
      [
        'claude.model_headers_settings',
        '{"claude-3-7-sonnet-20250219": {"anthropic-beta": ["output-128k-2025-02-19"]}}',
      ],
      ['claude.default_max_tokens', '{"default": 8192, "claude-3-haiku-20240307": 4096}'],
      ['gemini.safety_settings', '{"default": "OFF"}'],
      ['gemini.supported_imagine_models', '["gemini-2.0-flash-exp"]'],
      ['EmailDomainWhitelist', 'gmail.com, example.org'],
      ['oidc.well_known', 'https://idp.example.com/.well-known/openid-configuration'],
      ['payment_setting.amount_options', '[5, 30, 100]'],
      ['payment_setting.amount_options', '[]'],
      ['payment_setting.amount_discount', '{"100": 0.95, "500": 1}'],
      ['payment_setting.amount_discount', '{"1": 0.01}'],
    ];
    for (const [key, value] of accepted) {
      expect((await root.put('/api/option/', { key, value })).success, key).toBe(true);
      expect(server.ctx.options.get(key as never)).toBe(value);
    }
  });

  it('accepts every option default, so a reset form can always be saved', async () => {
    for (const key of OPTION_KEYS) {
      const result = await root.put('/api/option/', { key, value: OPTION_DEFINITIONS[key].default });
      expect(result.success, `${key}: ${result.message}`).toBe(true);
    }
  });

  it('strips the trailing slash of base addresses', async () => {
    for (const key of ['ServerAddress', 'PayAddress', 'CustomCallbackAddress', 'WeChatServerAddress'] as const) {
      expect((await root.put('/api/option/', { key, value: 'https://gw.example.com/' })).success).toBe(true);
      expect(server.ctx.options.get(key)).toBe('https://gw.example.com');
    }
    await root.put('/api/option/', { key: 'TopUpLink', value: 'https://shop.example.com/' });
    expect(server.ctx.options.get('TopUpLink')).toBe('https://shop.example.com/');
  });

  it('turns a sign-in method on once its client id is there', async () => {
    expect((await root.put('/api/option/', { key: 'GitHubClientId', value: 'gh-client' })).success).toBe(true);
    expect((await root.put('/api/option/', { key: 'GitHubOAuthEnabled', value: 'true' })).success).toBe(true);
    const status = await new ApiClient(server.baseUrl).get<{ github_oauth: boolean }>('/api/status');
    expect(status.data.github_oauth).toBe(true);
    await root.put('/api/option/', { key: 'GitHubOAuthEnabled', value: 'false' });
  });
});

describe('POST /api/option/rest_model_ratio', () => {
  let server: TestServer;
  let root: ApiClient;

  beforeAll(async () => {
    server = await startTestServer();
    root = await setupAndLogin(server.baseUrl);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('is for admins only', async () => {
    const user = await signedInUser(server.baseUrl, server.ctx.repos, 'pricer');
    await root.put('/api/option/', { key: 'ModelRatio', value: '{"custom": 3}' });
    const attempt = await user.post('/api/option/rest_model_ratio');
    expect(refusal(attempt)).toEqual(ROLE_REFUSED);
    expect(server.ctx.options.get('ModelRatio')).toBe('{"custom": 3}');
  });

  it('puts every per-model pricing map back to the built-in defaults and keeps the group ratios', async () => {
    const custom: Array<[string, string]> = [
      ['ModelRatio', '{"custom": 3}'],
      ['CompletionRatio', '{"custom": 2}'],
      ['CacheRatio', '{"custom": 0.5}'],
      ['ModelPrice', '{"custom-image": 0.2}'],
      ['GroupRatio', '{"default": 1, "vip": 0.8}'],
    ];
    for (const [key, value] of custom) expect((await root.put('/api/option/', { key, value })).success).toBe(true);

    const reset = await root.post('/api/option/rest_model_ratio');
    expect(reset).toMatchObject({ success: true, message: '模型倍率已重置为默认值' });
    for (const key of ['ModelRatio', 'CompletionRatio', 'CacheRatio', 'ModelPrice'] as const) {
      expect(server.ctx.options.get(key)).toBe(OPTION_DEFINITIONS[key].default);
    }
    expect(server.ctx.options.json<Record<string, number>>('ModelRatio')['gpt-4o']).toBe(1.25);
    expect(server.ctx.options.get('GroupRatio')).toBe('{"default": 1, "vip": 0.8}');
    const stored = await server.ctx.repos.options.all();
    expect(stored.find((row) => row.key === 'ModelRatio')?.value).toBe(OPTION_DEFINITIONS.ModelRatio.default);
  });
});
