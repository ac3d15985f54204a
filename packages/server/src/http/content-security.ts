import type { OptionsStore } from '../cache/options-store.js';

// The browser security baseline (OWASP Secure Headers): what every answer carries, and the console page's
// Content-Security-Policy. The console runs no inline script; antd's CSS-in-JS writes <style> elements at run time,
// so inline styles stay allowed (styles cannot run code).

/** Headers on every answer: nothing is sniffed into another type, and no page of ours tells others where it was. */
export const BASELINE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
} as const;

const TURNSTILE = 'https://challenges.cloudflare.com';
const TELEGRAM_SCRIPT = 'https://telegram.org';
const TELEGRAM_FRAME = 'https://oauth.telegram.org';

function originOf(address: string): string | null {
  try {
    // Chat templates carry placeholders ({key}, {address}) only after the origin.
    const url = new URL(address.replaceAll(/\{[a-z]+\}/g, 'x'));
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** The origins the console may frame: the operator's chat front-ends, and home/about pages given as an address. */
function framedOrigins(options: OptionsStore): string[] {
  const origins = new Set<string>();
  try {
    const chats = JSON.parse(options.get('Chats') || '[]') as Array<Record<string, string>>;
    for (const entry of Array.isArray(chats) ? chats : []) {
      for (const template of Object.values(entry ?? {})) {
        const origin = typeof template === 'string' ? originOf(template) : null;
        if (origin) origins.add(origin);
      }
    }
  } catch {
    // A broken Chats option shows an error on the chat page; it frames nothing.
  }
  for (const key of ['HomePageContent', 'About'] as const) {
    const value = options.get(key).trim();
    if (/^https:\/\/\S+$/.test(value)) {
      const origin = originOf(value);
      if (origin) origins.add(origin);
    }
  }
  return [...origins];
}

/** Where the wallet may post a payment form: this site and the operator's payment gateway (epay's form POST). */
function formTargets(options: OptionsStore): string[] {
  const targets = ["'self'"];
  const pay = options.get('PayAddress').trim();
  const origin = pay ? originOf(pay) : null;
  if (origin) targets.push(origin);
  return targets;
}

/**
 * The console page's policy: scripts only from this origin (plus Turnstile's and Telegram's when those sign-ins are
 * on), no plugins, no framing by other sites, frames only of the addresses the operator configured.
 */
export function consolePolicy(options: OptionsStore): string {
  const scripts = ["'self'"];
  const frames = ["'self'", ...framedOrigins(options)];
  if (options.bool('TurnstileCheckEnabled')) {
    scripts.push(TURNSTILE);
    frames.push(TURNSTILE);
  }
  if (options.bool('TelegramOAuthEnabled')) {
    // Telegram's login widget runs the page's `data-onauth` callback through `new Function`: while that sign-in
    // is on, the policy has to allow eval, or the widget cannot hand the login back.
    scripts.push(TELEGRAM_SCRIPT, "'unsafe-eval'");
    frames.push(TELEGRAM_FRAME);
  }
  return [
    "default-src 'self'",
    `script-src ${scripts.join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    // Operators put logos and pictures in notices by address.
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    `frame-src ${frames.join(' ')}`,
    "frame-ancestors 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    `form-action ${formTargets(options).join(' ')}`,
  ].join('; ');
}

/** Headers of a console page (index.html and the SPA fallback). */
export function consolePageHeaders(options: OptionsStore): Record<string, string> {
  return {
    ...BASELINE_HEADERS,
    'content-security-policy': consolePolicy(options),
    'x-frame-options': 'SAMEORIGIN',
    // The HTML names the hashed assets of the current build: always ask again, so a deploy shows at once.
    'cache-control': 'no-cache',
  };
}
