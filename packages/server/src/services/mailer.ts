import type { Language } from '@gateway/shared';
import { VERIFICATION_VALID_MINUTES } from '@gateway/shared';
import type { OptionsStore } from '../cache/options-store.js';
import { ApiFailure } from '../http/envelope.js';
import { escapeHtml } from '../http/escape-html.js';

/** The account mails: a verification code and a password reset link, in the language of the person asking. */

function systemName(options: OptionsStore): string {
  return options.get('SystemName') || 'AI Gateway';
}

/** SMTP must be set up before anything promises a mail: checked first, the same way for every caller. */
export function assertSmtpConfigured(options: OptionsStore): void {
  if (!options.get('SMTPServer')) throw new ApiFailure('smtp_not_configured');
}

export function verificationMail(
  options: OptionsStore,
  code: string,
  lang: Language,
): { subject: string; html: string } {
  const name = escapeHtml(systemName(options));
  if (lang === 'en') {
    return {
      subject: `${systemName(options)} e-mail verification`,
      html: `<p>Hello, you are verifying your e-mail address for ${name}.</p><p>Your verification code is: <strong>${code}</strong></p><p>The code is valid for ${VERIFICATION_VALID_MINUTES} minutes. If this was not you, ignore this mail.</p>`,
    };
  }
  return {
    subject: `${systemName(options)} 邮箱验证邮件`,
    html: `<p>您好，你正在进行 ${name} 邮箱验证。</p><p>您的验证码为：<strong>${code}</strong></p><p>验证码 ${VERIFICATION_VALID_MINUTES} 分钟内有效，如果不是本人操作，请忽略。</p>`,
  };
}

export function resetMail(options: OptionsStore, link: string, lang: Language): { subject: string; html: string } {
  const name = escapeHtml(systemName(options));
  const href = escapeHtml(link);
  if (lang === 'en') {
    return {
      subject: `${systemName(options)} password reset`,
      html: `<p>Hello, you asked to reset your ${name} password.</p><p>Open this link to reset it: <a href="${href}">${href}</a></p><p>If the link cannot be clicked, copy it into your browser. It is valid for ${VERIFICATION_VALID_MINUTES} minutes and works once. If this was not you, ignore this mail.</p>`,
    };
  }
  return {
    subject: `${systemName(options)} 密码重置`,
    html: `<p>您好，你正在进行 ${name} 密码重置。</p><p>点击 <a href="${href}">此处</a> 进行密码重置。</p><p>如果链接无法点击，请尝试复制以下链接到浏览器中打开：<br>${href}</p><p>重置链接 ${VERIFICATION_VALID_MINUTES} 分钟内有效，且只能使用一次，如果不是本人操作，请忽略。</p>`,
  };
}
