#!/usr/bin/env node
// `npm test`: lint, type-check, build, then every test (shared, server on three databases, web components,
// browser journeys). Steps run in order and stop at the first failure so the cause is the last thing printed.
import { spawnSync } from 'node:child_process';

const steps = [
  ['lint and format', 'npx', ['biome', 'check', '.']],
  ['module boundaries', 'node', ['scripts/check-boundaries.mjs']],
  ['type-check and build shared + server', 'npx', ['tsc', '-b', 'packages/shared', 'packages/server']],
  ['type-check server tests', 'npx', ['tsc', '-p', 'packages/server/tsconfig.test.json']],
  ['type-check web', 'npx', ['tsc', '-p', 'packages/web']],
  ['type-check browser journeys', 'npx', ['tsc', '-p', 'packages/web/e2e']],
  ['type-check benchmarks', 'npx', ['tsc', '-p', 'bench']],
  ['build web', 'npm', ['run', 'build', '-w', 'packages/web']],
  ['tests', 'npx', ['vitest', 'run', ...process.argv.slice(2)]],
];

for (const [title, command, args] of steps) {
  const started = Date.now();
  console.log(`\n▶ ${title}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`✖ ${title} failed after ${seconds}s`);
    process.exit(result.status ?? 1);
  }
  console.log(`✔ ${title} (${seconds}s)`);
}
