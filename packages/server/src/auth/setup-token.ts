import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Config } from '../config.js';

/**
 * The one-time token first-run setup asks for, so a fresh instance is set up by whoever can read its log (or its
 * data folder), not by whoever reaches it first. SETUP_TOKEN gives it; otherwise one is generated, kept in a file
 * beside the SQLite database (so a restart before setup keeps it) and printed to the log. Not made at all once the
 * database is set up (an adopted family database counts as set up).
 */
export interface SetupToken {
  value: string;
  /** Generated here (and so to be printed), rather than given by SETUP_TOKEN. */
  generated: boolean;
  /** Where a generated token is kept until setup is done; null when only the log has it. */
  file: string | null;
}

const TOKEN_BYTES = 18;

export function resolveSetupToken(setup: Config['setup']): SetupToken {
  if (setup.token) return { value: setup.token, generated: false, file: null };
  const file = setup.tokenFile;
  if (file && existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored) return { value: stored, generated: true, file };
  }
  const value = randomBytes(TOKEN_BYTES).toString('base64url');
  if (file) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, value, { mode: 0o600 });
  }
  return { value, generated: true, file };
}

/** Compares in constant time (over digests, so the lengths do not leak either). */
export function setupTokenMatches(expected: string, given: unknown): boolean {
  if (typeof given !== 'string' || !given) return false;
  const digest = (text: string) => createHash('sha256').update(text.trim()).digest();
  return timingSafeEqual(digest(expected), digest(given));
}

/** Setup is done (here or on another node): the token opens nothing any more, and its file goes. */
export function finishSetup(setup: { done: boolean; token: SetupToken | null }): void {
  setup.done = true;
  if (setup.token?.file) rmSync(setup.token.file, { force: true });
  setup.token = null;
}

/** The log line that tells the operator the token (never written when SETUP_TOKEN gave it). */
export function setupTokenNotice(token: SetupToken): string {
  const where = token.file ? ` (also in ${token.file})` : '';
  return `First-run setup needs this one-time setup token${where}: ${token.value}`;
}
