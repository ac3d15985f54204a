import { LANGUAGES, VERIFICATION_VALID_MINUTES } from '@gateway/shared';
import { describe, expect, it } from 'vitest';
import type { OptionsStore } from '../../src/cache/options-store.js';
import { escapeHtml } from '../../src/http/escape-html.js';
import { resetMail, verificationMail } from '../../src/services/notifications/mailer.js';

const options = { get: (key: string) => (key === 'SystemName' ? 'Gate <One>' : '') } as unknown as OptionsStore;

describe('account mails in every console language', () => {
  it.each(LANGUAGES)('%s: the verification mail carries the code and how long it lasts', (lang) => {
    const mail = verificationMail(options, '493817', lang);
    expect(mail.subject).toContain('Gate <One>');
    expect(mail.html).toContain(escapeHtml('Gate <One>'));
    expect(mail.html).not.toContain('<One>');
    expect(mail.html).toContain('<strong>493817</strong>');
    expect(mail.html).toContain(String(VERIFICATION_VALID_MINUTES));
  });

  it.each(LANGUAGES)('%s: the reset mail links to the escaped address', (lang) => {
    const link = 'https://gate.example/reset?email=a@b.c&token=x"y';
    const mail = resetMail(options, link, lang);
    expect(mail.subject).toContain('Gate <One>');
    expect(mail.html).toContain(`href="${escapeHtml(link)}"`);
    expect(mail.html).not.toContain('x"y');
    expect(mail.html).toContain(String(VERIFICATION_VALID_MINUTES));
  });

  it('writes each language in its own words', () => {
    const subjects = new Set(LANGUAGES.map((lang) => verificationMail(options, '1', lang).subject));
    expect(subjects.size).toBe(LANGUAGES.length);
  });
});
