import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The node flags of `npm start` (from the root package.json), so that the browser journeys and the benchmark run
 * the gateway exactly as operators do: a GC flag changed there is measured and tested without a second edit.
 * @param {string} root the repository root
 * @returns {string[]}
 */
export function startFlags(root) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return pkg.scripts.start.split(/\s+/).filter((/** @type {string} */ word) => word.startsWith('--'));
}
