import type { OptionsStore } from '../cache/options-store.js';

interface Matcher {
  source: string;
  find(text: string): string | null;
}

let cached: Matcher | null = null;

/**
 * One case-insensitive scan for all sensitive words, rebuilt only when the SensitiveWords option changes. A
 * single alternation regex is compiled to an automaton by V8, so the cost does not grow with the word count the
 * way a loop over `includes` would.
 */
function matcher(words: string): Matcher {
  if (cached?.source === words) return cached;
  const list = words
    .split('\n')
    .map((word) => word.trim())
    .filter(Boolean)
    .sort((a, b) => b.length - a.length)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = list.length ? new RegExp(list.join('|'), 'i') : null;
  cached = { source: words, find: (text) => (pattern ? (pattern.exec(text)?.[0] ?? null) : null) };
  return cached;
}

/** The first sensitive word in the prompt text, or null; only when both switches are on. */
export function findSensitiveWord(options: OptionsStore, promptText: () => string): string | null {
  if (!options.bool('CheckSensitiveEnabled') || !options.bool('CheckSensitiveOnPromptEnabled')) return null;
  // The prompt text is only assembled when the check is on: most requests never pay for it.
  return matcher(options.get('SensitiveWords')).find(promptText());
}
