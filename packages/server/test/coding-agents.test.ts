import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentsInstalled, runAgent } from './helpers/agents.js';
import { setupAndLogin } from './helpers/client.js';
import { addChannel, addToken, balances, priceModels } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { AGENT_USAGE, CHAT_ONLY_PREFIX, startAgentModel } from './mock-upstream/agent-model.js';

// The coding agents people point at gateways, run headless from npm against the gateway, each completing a task
// that needs a tool call (write a file) through an OpenAI-compatible channel: the mock model calls the tool the
// agent declared. Telemetry, updates and logins are off; each agent gets its own empty HOME.
// Served by the OpenAI-format channel. Claude Code's quick side calls go to its small model; Gemini CLI routes some
// calls (classification, summaries) to flash models besides the one asked for.
const OPENAI_SERVED = [
  'claude-sonnet-4-5-20250929',
  'claude-haiku-4-5-20251001',
  'gemini-2.5-pro',
  'gemini-2.5-flash',
  'gemini-2.5-flash-lite',
];
// The control runs: each agent's main model on a channel of its own format.
const CLAUDE_SERVED = 'claude-sonnet-4-20250514';
// Codex speaks only the Responses API: a chat-only OpenAI-compatible channel (DeepSeek's row) needs the conversion;
// OpenAI's own row serves Responses natively (the control).
const CODEX_VIA_CHAT = 'deepseek-chat';
const CODEX_SERVED = 'gpt-5-codex';
// An OpenAI row whose upstream serves chat completions only (vLLM): its default `auto` Responses mode meets the 404
// on /v1/responses and converts, within the same request.
const CODEX_AUTO = 'vllm-codex';
const GEMINI_SERVED = 'gemini-2.0-flash';
// Ratio 0.5, completion ratio 1 for every model: each upstream call costs (100 + 20) × 0.5 = 60 quota.
const PER_CALL = AGENT_USAGE.prompt_tokens + AGENT_USAGE.completion_tokens;

const ready = agentsInstalled();

describe.runIf(ready)('coding agents through an OpenAI-format channel', () => {
  let server: TestServer;
  let model: Awaited<ReturnType<typeof startAgentModel>>;
  let key: string;
  let userId: number;
  let work: string;

  beforeAll(async () => {
    model = await startAgentModel();
    server = await startTestServer('sqlite');
    const root = await setupAndLogin(server.baseUrl);
    userId = root.userId!;
    const models = [...OPENAI_SERVED, CLAUDE_SERVED, GEMINI_SERVED, CODEX_VIA_CHAT, CODEX_SERVED, CODEX_AUTO];
    await addChannel(root, {
      type: 1,
      key: 'sk-agent-upstream',
      base_url: model.baseUrl,
      models: OPENAI_SERVED.join(','),
    });
    await addChannel(root, { type: 14, key: 'sk-ant-agent', base_url: model.baseUrl, models: CLAUDE_SERVED });
    await addChannel(root, { type: 24, key: 'gemini-agent', base_url: model.baseUrl, models: GEMINI_SERVED });
    await addChannel(root, { type: 43, key: 'sk-ds-agent', base_url: model.baseUrl, models: CODEX_VIA_CHAT });
    await addChannel(root, { type: 1, key: 'sk-oa-agent', base_url: model.baseUrl, models: CODEX_SERVED });
    await addChannel(root, {
      type: 1,
      key: 'sk-vllm-agent',
      base_url: `${model.baseUrl}${CHAT_ONLY_PREFIX}`,
      models: CODEX_AUTO,
    });
    await priceModels(server, root, Object.fromEntries(models.map((name) => [name, 0.5])));
    // Output priced like input, so every call costs the same whatever the model's default completion ratio.
    const completion = await root.put('/api/option/', {
      key: 'CompletionRatio',
      value: JSON.stringify(Object.fromEntries(models.map((name) => [name, 1]))),
    });
    expect(completion.success).toBe(true);
    key = await addToken(root, { remain_quota: 10_000_000 });
    work = mkdtempSync(join(tmpdir(), 'gateway-agents-'));
  }, 600_000);
  afterAll(async () => {
    await server?.close();
    await model?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** Runs an agent on a task that needs its file-writing tool and checks the file, the tool call and the bill. */
  async function writesThroughGateway(
    agent: 'claude' | 'gemini' | 'codex',
    mainModel: string,
    format: 'openai' | 'claude' | 'gemini' | 'responses',
    command: (prompt: string, home: string) => { args: string[]; env: Record<string, string> },
  ) {
    const home = mkdtempSync(join(work, `${agent}-home-`));
    const target = join(work, `from-${agent}-${format}.txt`);
    const text = `written by ${agent} through the gateway's ${format} channel`;
    const before = await balances(server, userId, key);
    const calls = model.calls.length;
    const { args, env } = command(`Create the file ${target} containing exactly: ${text}`, home);
    const result = await runAgent(agent, [...args, agent === 'claude' ? '--model' : '-m', mainModel], {
      cwd: work,
      env,
    });
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(readFileSync(target, 'utf8')).toBe(text);
    const made = model.calls.slice(calls);
    const toolCalls = made.filter((call) => call.answered === 'tool');
    expect(toolCalls).toHaveLength(1);
    // The main model's channel answered the tool call in its own format, the agent's declarations intact.
    expect(toolCalls[0]).toMatchObject({
      format,
      // Codex writes files with its exec_command shell tool when the model is not one of OpenAI's own.
      tools: expect.arrayContaining([{ claude: 'Write', gemini: 'write_file', codex: 'exec_command' }[agent]]),
    });
    const after = await balances(server, userId, key);
    // Every upstream call was billed, nothing more, nothing less.
    expect(before.user.quota - after.user.quota).toBe(made.length * PER_CALL * 0.5);
  }

  const claudeCode = (prompt: string, home: string) => ({
    args: ['-p', prompt, '--allowedTools', 'Write', '--permission-mode', 'acceptEdits', '--output-format', 'json'],
    env: {
      HOME: home,
      ANTHROPIC_BASE_URL: server.baseUrl,
      ANTHROPIC_API_KEY: key,
      ANTHROPIC_SMALL_FAST_MODEL: 'claude-haiku-4-5-20251001',
      ANTHROPIC_DEFAULT_HAIKU_MODEL: 'claude-haiku-4-5-20251001',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
      CI: 'true',
    },
  });

  const geminiCli = (prompt: string, home: string) => {
    // Headless and private: API-key auth, no telemetry, no usage statistics, no update checks.
    mkdirSync(join(home, '.gemini'));
    writeFileSync(
      join(home, '.gemini', 'settings.json'),
      JSON.stringify({
        security: { auth: { selectedType: 'gemini-api-key' } },
        telemetry: { enabled: false },
        privacy: { usageStatisticsEnabled: false },
        general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      }),
    );
    return {
      args: ['-p', prompt, '--approval-mode', 'yolo', '--output-format', 'json'],
      env: {
        HOME: home,
        GEMINI_API_KEY: key,
        GOOGLE_GEMINI_BASE_URL: server.baseUrl,
        GEMINI_TELEMETRY_ENABLED: 'false',
        // A throwaway folder of the test's own: trust it without the interactive prompt.
        GEMINI_CLI_TRUST_WORKSPACE: 'true',
        CI: 'true',
      },
    };
  };

  const codexCli = (prompt: string, home: string, transport: 'http' | 'websocket' = 'http') => ({
    // The gateway as a model provider of its own (Responses wire API, key from the environment); no sandbox and no
    // approvals in a throwaway folder, no git checks, nothing sent anywhere else. With the WebSocket transport the
    // provider says it supports it and the feature is on: Codex opens GET /v1/responses first.
    args: [
      'exec',
      '--skip-git-repo-check',
      '--dangerously-bypass-approvals-and-sandbox',
      '-c',
      'model_provider="gateway"',
      '-c',
      `model_providers.gateway={ name = "gateway", base_url = "${server.baseUrl}/v1", env_key = "GATEWAY_API_KEY", wire_api = "responses"${transport === 'websocket' ? ', supports_websockets = true' : ''} }`,
      ...(transport === 'websocket'
        ? ['-c', 'features.responses_websockets=true', '-c', 'features.responses_websockets_v2=true']
        : []),
      '-c',
      'analytics.enabled=false',
      '-c',
      'otel.exporter="none"',
      prompt,
    ],
    env: { HOME: home, CODEX_HOME: home, GATEWAY_API_KEY: key, CI: 'true' },
  });

  it('Claude Code (claude -p) writes a file with its Write tool through an OpenAI-format channel', async () => {
    await writesThroughGateway('claude', 'claude-sonnet-4-5-20250929', 'openai', claudeCode);
  }, 180_000);

  it('Claude Code does the same through a Claude channel (control)', async () => {
    await writesThroughGateway('claude', CLAUDE_SERVED, 'claude', claudeCode);
  }, 180_000);

  it('Gemini CLI (gemini -p) writes a file with its write_file tool through an OpenAI-format channel', async () => {
    await writesThroughGateway('gemini', 'gemini-2.5-pro', 'openai', geminiCli);
  }, 180_000);

  it('Gemini CLI does the same through a Gemini channel (control)', async () => {
    await writesThroughGateway('gemini', GEMINI_SERVED, 'gemini', geminiCli);
  }, 180_000);

  it('Codex CLI (codex exec) writes a file with its shell tool through a chat-only channel', async () => {
    await writesThroughGateway('codex', CODEX_VIA_CHAT, 'openai', codexCli);
  }, 180_000);

  it('Codex CLI does the same through a channel that serves the Responses API (control)', async () => {
    await writesThroughGateway('codex', CODEX_SERVED, 'responses', codexCli);
  }, 180_000);

  it('Codex CLI does the same through an OpenAI row whose upstream serves chat only (auto Responses mode)', async () => {
    await writesThroughGateway('codex', CODEX_AUTO, 'openai', codexCli);
  }, 180_000);

  describe('Codex CLI over its WebSocket transport', () => {
    // Upgrades on /v1/responses, and HTTP POSTs to it (the requests a WebSocket session makes never reach the
    // server's socket): every response must have come over the WebSocket.
    const seen = { upgrades: 0, posts: 0 };
    const countUpgrade = (request: { url?: string }) => {
      if (request.url?.startsWith('/v1/responses')) seen.upgrades += 1;
    };
    const countPost = (request: { method?: string; url?: string }) => {
      if (request.method === 'POST' && request.url?.startsWith('/v1/responses')) seen.posts += 1;
    };
    beforeAll(() => {
      server.app.server.prependListener('upgrade', countUpgrade);
      server.app.server.prependListener('request', countPost);
    });
    afterAll(() => {
      server.app.server.off('upgrade', countUpgrade);
      server.app.server.off('request', countPost);
    });
    const codexSocket = (prompt: string, home: string) => codexCli(prompt, home, 'websocket');

    it.each([
      { channel: 'a chat-only channel', model: CODEX_VIA_CHAT, format: 'openai' as const },
      { channel: 'a channel that serves the Responses API', model: CODEX_SERVED, format: 'responses' as const },
      { channel: 'an OpenAI row whose upstream serves chat only', model: CODEX_AUTO, format: 'openai' as const },
    ])(
      'writes a file with its shell tool through $channel',
      async ({ model: served, format }) => {
        const before = { ...seen };
        await writesThroughGateway('codex', served, format, codexSocket);
        expect(seen.upgrades).toBeGreaterThan(before.upgrades);
        expect(seen.posts).toBe(before.posts);
      },
      180_000,
    );
  });
});
