#!/usr/bin/env node
// Fails (exit 1) when a file crosses a boundary the code states: which module may import which, and where a
// server answer's shape is declared. The rules live in boundaries/rules.mjs; this walks the files and reports
// each finding as file:line with the rule it breaks.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkFile, exportedNames, rules } from './boundaries/rules.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Each rule names the files it applies to; these are the trees walked to find them.
const TREES = ['packages/web/src', 'packages/server/src'];
const SOURCE = /\.(m?[jt]sx?)$/;

function walk(dir) {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    return statSync(path.join(root, rel)).isDirectory() ? walk(rel) : SOURCE.test(name) ? [rel] : [];
  });
}

// The names @gateway/shared exports: what its source files declare with `export`.
const sharedNames = new Set(
  walk('packages/shared/src').flatMap((file) => exportedNames(readFileSync(path.join(root, file), 'utf8'))),
);

const findings = TREES.flatMap(walk).flatMap((file) =>
  checkFile(rules, file, readFileSync(path.join(root, file), 'utf8'), { sharedNames }),
);
for (const { file, line, rule, message } of findings) console.error(`${file}:${line}  ${message}\n    rule: ${rule}`);
if (findings.length > 0) {
  console.error(`\n✖ ${findings.length} boundary violation(s)`);
  process.exit(1);
}
console.log('✔ boundaries hold');
