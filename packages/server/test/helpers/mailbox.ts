import type { ReceivedMail } from './smtp.js';

/** The options that point the gateway's mailer at a local receiver. */
export function smtpOptions(port: number): [string, string][] {
  return [
    ['SMTPServer', '127.0.0.1'],
    ['SMTPPort', String(port)],
    ['SMTPFrom', 'gateway@example.com'],
  ];
}

/**
 * The readable body of a single-part mail as nodemailer writes it (quoted-printable or base64), so a test can
 * look for the code or link a person would see.
 */
export function mailBody(mail: ReceivedMail): string {
  const split = mail.raw.indexOf('\r\n\r\n');
  const headers = mail.raw.slice(0, split);
  const body = mail.raw.slice(split + 4);
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const escaped = body.replace(/=\r?\n/g, '').replaceAll('%', '%25');
    return decodeURIComponent(escaped.replace(/=([0-9A-F]{2})/gi, (_, hex: string) => `%${hex}`));
  }
  return body;
}

export function codeFrom(mail: ReceivedMail): string {
  const code = /<strong>(\d{6})<\/strong>/.exec(mailBody(mail))?.[1];
  if (!code) throw new Error(`no verification code in mail:\n${mailBody(mail)}`);
  return code;
}

export function resetLinkFrom(mail: ReceivedMail): URL {
  const href = /href="([^"]+)"/.exec(mailBody(mail))?.[1];
  if (!href) throw new Error(`no reset link in mail:\n${mailBody(mail)}`);
  return new URL(
    href.replaceAll('&amp;', '&').replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))),
  );
}
