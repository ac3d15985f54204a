import type { OptionsStore } from '../../cache/options-store.js';
import type { UserRow } from '../../db/schema.js';
import { escapeHtml } from '../../http/escape-html.js';
import { userSetting } from '../accounts/user-setting.js';
import { outboundFetch } from '../security/outbound.js';

export interface Notice {
  type: string;
  title: string;
  content: string;
}

/** Sends an e-mail through the admin's SMTP settings. */
export async function sendMail(options: OptionsStore, to: string, subject: string, html: string): Promise<void> {
  const host = options.get('SMTPServer');
  if (!host) throw new Error('SMTP is not configured');
  // Loaded on the first e-mail: most nodes never send one.
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport({
    host,
    port: options.number('SMTPPort'),
    secure: options.bool('SMTPSSLEnabled'),
    auth: options.get('SMTPAccount') ? { user: options.get('SMTPAccount'), pass: options.get('SMTPToken') } : undefined,
  });
  await transport.sendMail({
    from: options.get('SMTPFrom') || options.get('SMTPAccount'),
    to,
    subject,
    html,
  });
}

/**
 * Tells a user something by the channel they chose in their settings: a POST to their HTTPS webhook (with their
 * secret as a bearer token, through the SSRF-safe client) or an e-mail.
 */
export async function notifyUser(options: OptionsStore, user: UserRow, notice: Notice): Promise<void> {
  const setting = userSetting(user);
  if (setting.notify_type === 'webhook' && setting.webhook_url) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (setting.webhook_secret) headers.authorization = `Bearer ${setting.webhook_secret}`;
    const response = await outboundFetch(
      setting.webhook_url,
      { method: 'POST', headers, body: JSON.stringify({ ...notice, timestamp: Math.floor(Date.now() / 1000) }) },
      { allowPrivate: options.bool('fetch_setting.allow_private_ip'), timeoutMs: 10_000 },
    );
    if (response.status >= 300) throw new Error(`webhook answered HTTP ${response.status}`);
    return;
  }
  const to = setting.notification_email || user.email;
  if (!to) return;
  // Contents may quote upstream error messages: never let them become markup in someone's mail client.
  await sendMail(options, to, notice.title, `<p>${escapeHtml(notice.content)}</p>`);
}
