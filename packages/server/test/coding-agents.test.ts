import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentsInstalled, runAgent } from './helpers/agents.js';
import { setupAndLogin } from './helpers/client.js';
import { addChannel, addToken, balances, priceModels } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { AGENT_USAGE, startAgentModel } from './mock-upstream/agent-model.js';

// The coding agents people point at gateways, run headless from npm against the gateway, each completing a task
// that needs a tool call (write a file) through an OpenAI-compatible channel: the mock model calls the tool the
// agent declared. Telemetry, updates and logins are off; each agent gets its own empty HOME.
const CLAUDE_MODELS = ['claude-sonnet-4-5-20250929', 'claude-haiku-4-5-20251001'];
// Gemini CLI routes some calls (classification, summaries) to flash models besides the one asked for.
const GEMINI_MODELS = ['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite'];
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
    const models = [...CLAUDE_MODELS, ...GEMINI_MODELS];
    await addChannel(root, { type: 1, key: 'sk-agent-upstream', base_url: model.baseUrl, models: models.join(',') });
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

  it('Claude Code (claude -p) writes a file with its Write tool, billed call by call', async () => {
    const home = mkdtempSync(join(work, 'claude-home-'));
    const target = join(work, 'from-claude.txt');
    const before = await balances(server, userId, key);
    const calls = model.calls.length;
    const result = await runAgent(
      'claude',
      [
        '-p',
        `Create the file ${target} containing exactly: written by Claude Code through the gateway`,
        '--allowedTools',
        'Write',
        '--permission-mode',
        'acceptEdits',
        '--output-format',
        'json',
        '--model',
        CLAUDE_MODELS[0]!,
      ],
      {
        cwd: work,
        env: {
          HOME: home,
          ANTHROPIC_BASE_URL: server.baseUrl,
          ANTHROPIC_API_KEY: key,
          ANTHROPIC_SMALL_FAST_MODEL: CLAUDE_MODELS[1]!,
          ANTHROPIC_DEFAULT_HAIKU_MODEL: CLAUDE_MODELS[1]!,
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          DISABLE_TELEMETRY: '1',
          DISABLE_AUTOUPDATER: '1',
          DISABLE_ERROR_REPORTING: '1',
          CI: 'true',
        },
      },
    );
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(readFileSync(target, 'utf8')).toBe('written by Claude Code through the gateway');
    const made = model.calls.slice(calls);
    expect(made.filter((call) => call.answered === 'tool')).toHaveLength(1);
    // Its tool declaration crossed the conversion as an OpenAI function.
    const toolCall = made.find((call) => call.answered === 'tool')!;
    expect(toolCall.body.tools?.some((tool) => tool.function?.name === 'Write')).toBe(true);
    const after = await balances(server, userId, key);
    // Every upstream call was billed: (100 + 20) × ratio 0.5 each, nothing more, nothing less.
    expect(before.user.quota - after.user.quota).toBe(made.length * PER_CALL * 0.5);
  }, 180_000);

  it('Gemini CLI (gemini -p) writes a file with its write_file tool, billed call by call', async () => {
    const home = mkdtempSync(join(work, 'gemini-home-'));
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
    const target = join(work, 'from-gemini.txt');
    const before = await balances(server, userId, key);
    const calls = model.calls.length;
    const result = await runAgent(
      'gemini',
      [
        '-p',
        `Create the file ${target} containing exactly: written by Gemini CLI through the gateway`,
        '--approval-mode',
        'yolo',
        '--output-format',
        'json',
        '-m',
        GEMINI_MODELS[0]!,
      ],
      {
        cwd: work,
        env: {
          HOME: home,
          GEMINI_API_KEY: key,
          GOOGLE_GEMINI_BASE_URL: server.baseUrl,
          GEMINI_TELEMETRY_ENABLED: 'false',
          // A throwaway folder of the test's own: trust it without the interactive prompt.
          GEMINI_CLI_TRUST_WORKSPACE: 'true',
          CI: 'true',
        },
      },
    );
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(readFileSync(target, 'utf8')).toBe('written by Gemini CLI through the gateway');
    const made = model.calls.slice(calls);
    const toolCall = made.find((call) => call.answered === 'tool');
    expect(toolCall?.body.tools?.some((tool) => tool.function?.name === 'write_file')).toBe(true);
    const after = await balances(server, userId, key);
    expect(before.user.quota - after.user.quota).toBe(made.length * PER_CALL * 0.5);
  }, 180_000);
});
