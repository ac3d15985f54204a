import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { IN_CI } from './databases.js';

/** tools/agents: the coding agents' own package, installed on first use (about 700 MB nothing else needs). */
const AGENTS_DIR = resolve(import.meta.dirname, '../../../../tools/agents');
const BIN = join(AGENTS_DIR, 'node_modules/.bin');

/**
 * Installs the agents from their lockfile once (npm ci, scripts off: only Claude Code's own installer is run, which
 * puts its native binary in place). Returns false with a note outside CI when the registry cannot be reached; in CI
 * a failed install fails the tests.
 */
export function agentsInstalled(): boolean {
  if (existsSync(join(BIN, 'claude')) && existsSync(join(BIN, 'codex')) && existsSync(join(BIN, 'gemini'))) {
    const check = spawnSync(join(BIN, 'claude'), ['--version'], { encoding: 'utf8' });
    if (check.status === 0) return true;
  }
  const steps: Array<[string, string[]]> = [
    ['npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund']],
    ['node', ['node_modules/@anthropic-ai/claude-code/install.cjs']],
  ];
  for (const [command, args] of steps) {
    const run = spawnSync(command, args, { cwd: AGENTS_DIR, encoding: 'utf8', timeout: 600_000 });
    if (run.status !== 0) {
      const why = `${command} ${args.join(' ')} failed in tools/agents: ${run.stderr.slice(-500)}`;
      if (IN_CI) throw new Error(why);
      console.warn(`[skip] coding agents not installed (${why})`);
      return false;
    }
  }
  return true;
}

export interface AgentRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs an agent's CLI headless with a bounded time; its environment is exactly `env` plus PATH. */
export function runAgent(
  name: 'claude' | 'codex' | 'gemini',
  args: string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs?: number },
): Promise<AgentRun> {
  return new Promise((done) => {
    const child = spawn(join(BIN, name), args, {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}
