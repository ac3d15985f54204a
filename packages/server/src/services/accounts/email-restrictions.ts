import type { MessageCode } from '@gateway/shared';
import type { OptionsStore } from '../../cache/options-store.js';
import { ApiFailure } from '../../http/envelope.js';

// Providers that ignore dots in the local part, so `a.b@` and `ab@` are one mailbox.
const DOT_BLIND_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * Why an address is refused under the operator's rules, or null: the domain whitelist
 * (`EmailDomainRestrictionEnabled` + `EmailDomainWhitelist`) and the alias rule (`EmailAliasRestrictionEnabled`),
 * which stops one mailbox from collecting many accounts through `name+tag@` or dotted Gmail spellings.
 */
export function emailRefusal(options: OptionsStore, email: string): MessageCode | null {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  const domain = email.slice(at + 1).toLowerCase();
  if (options.bool('EmailDomainRestrictionEnabled')) {
    const allowed = options
      .get('EmailDomainWhitelist')
      .split(',')
      .map((entry) => entry.trim().toLowerCase())
      .filter(Boolean);
    if (!allowed.includes(domain)) return 'email_domain_not_allowed';
  }
  if (options.bool('EmailAliasRestrictionEnabled')) {
    if (local.includes('+')) return 'email_alias_not_allowed';
    if (DOT_BLIND_DOMAINS.has(domain) && local.includes('.')) return 'email_alias_not_allowed';
  }
  return null;
}

export function assertEmailAllowed(options: OptionsStore, email: string): void {
  const refusal = emailRefusal(options, email);
  if (refusal) throw new ApiFailure(refusal);
}
