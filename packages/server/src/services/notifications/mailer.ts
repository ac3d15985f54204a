import type { Language } from '@gateway/shared';
import { VERIFICATION_VALID_MINUTES } from '@gateway/shared';
import type { OptionsStore } from '../../cache/options-store.js';
import { ApiFailure } from '../../http/envelope.js';
import { escapeHtml } from '../../http/escape-html.js';

/** The account mails: a verification code and a password reset link, in the language of the person asking. */

function systemName(options: OptionsStore): string {
  return options.get('SystemName') || 'AI Gateway';
}

/** SMTP must be set up before anything promises a mail: checked first, the same way for every caller. */
export function assertSmtpConfigured(options: OptionsStore): void {
  if (!options.get('SMTPServer')) throw new ApiFailure('smtp_not_configured');
}

interface MailTexts {
  verifySubject: (name: string) => string;
  verifyHtml: (name: string, code: string, minutes: number) => string;
  resetSubject: (name: string) => string;
  resetHtml: (name: string, href: string, minutes: number) => string;
}

// `name` and `href` arrive HTML-escaped for the bodies and raw for the subjects.
const MAIL_TEXTS: Record<Language, MailTexts> = {
  zh: {
    verifySubject: (name) => `${name} 邮箱验证邮件`,
    verifyHtml: (name, code, minutes) =>
      `<p>您好，你正在进行 ${name} 邮箱验证。</p><p>您的验证码为：<strong>${code}</strong></p><p>验证码 ${minutes} 分钟内有效，如果不是本人操作，请忽略。</p>`,
    resetSubject: (name) => `${name} 密码重置`,
    resetHtml: (name, href, minutes) =>
      `<p>您好，你正在进行 ${name} 密码重置。</p><p>点击 <a href="${href}">此处</a> 进行密码重置。</p><p>如果链接无法点击，请尝试复制以下链接到浏览器中打开：<br>${href}</p><p>重置链接 ${minutes} 分钟内有效，且只能使用一次，如果不是本人操作，请忽略。</p>`,
  },
  en: {
    verifySubject: (name) => `${name} e-mail verification`,
    verifyHtml: (name, code, minutes) =>
      `<p>Hello, you are verifying your e-mail address for ${name}.</p><p>Your verification code is: <strong>${code}</strong></p><p>The code is valid for ${minutes} minutes. If this was not you, ignore this mail.</p>`,
    resetSubject: (name) => `${name} password reset`,
    resetHtml: (name, href, minutes) =>
      `<p>Hello, you asked to reset your ${name} password.</p><p>Open this link to reset it: <a href="${href}">${href}</a></p><p>If the link cannot be clicked, copy it into your browser. It is valid for ${minutes} minutes and works once. If this was not you, ignore this mail.</p>`,
  },
  'zh-TW': {
    verifySubject: (name) => `${name} 電子郵件驗證`,
    verifyHtml: (name, code, minutes) =>
      `<p>您好，您正在進行 ${name} 的電子郵件驗證。</p><p>您的驗證碼為：<strong>${code}</strong></p><p>驗證碼 ${minutes} 分鐘內有效，如果不是您本人操作，請忽略此郵件。</p>`,
    resetSubject: (name) => `${name} 密碼重設`,
    resetHtml: (name, href, minutes) =>
      `<p>您好，您正在重設 ${name} 的密碼。</p><p>請點選 <a href="${href}">此處</a> 重設密碼。</p><p>如果連結無法點選，請將以下網址複製到瀏覽器中開啟：<br>${href}</p><p>重設連結 ${minutes} 分鐘內有效，且只能使用一次；如果不是您本人操作，請忽略此郵件。</p>`,
  },
  ja: {
    verifySubject: (name) => `${name} メールアドレスの確認`,
    verifyHtml: (name, code, minutes) =>
      `<p>こんにちは。${name} のメールアドレス確認を行っています。</p><p>認証コード：<strong>${code}</strong></p><p>認証コードの有効期限は ${minutes} 分です。お心当たりがない場合は、このメールを無視してください。</p>`,
    resetSubject: (name) => `${name} パスワードの再設定`,
    resetHtml: (name, href, minutes) =>
      `<p>こんにちは。${name} のパスワード再設定が申請されました。</p><p><a href="${href}">こちら</a>からパスワードを再設定してください。</p><p>リンクをクリックできない場合は、次のアドレスをブラウザーにコピーして開いてください：<br>${href}</p><p>リンクの有効期限は ${minutes} 分で、1 回だけ使えます。お心当たりがない場合は、このメールを無視してください。</p>`,
  },
  fr: {
    verifySubject: (name) => `${name} : vérification de votre adresse e-mail`,
    verifyHtml: (name, code, minutes) =>
      `<p>Bonjour, vous vérifiez votre adresse e-mail pour ${name}.</p><p>Votre code de vérification est : <strong>${code}</strong></p><p>Ce code est valable ${minutes} minutes. Si vous n’êtes pas à l’origine de cette demande, ignorez ce message.</p>`,
    resetSubject: (name) => `${name} : réinitialisation du mot de passe`,
    resetHtml: (name, href, minutes) =>
      `<p>Bonjour, vous avez demandé à réinitialiser votre mot de passe ${name}.</p><p>Ouvrez ce lien pour le réinitialiser : <a href="${href}">${href}</a></p><p>Si le lien n’est pas cliquable, copiez-le dans votre navigateur. Il est valable ${minutes} minutes et ne fonctionne qu’une fois. Si vous n’êtes pas à l’origine de cette demande, ignorez ce message.</p>`,
  },
  ru: {
    verifySubject: (name) => `${name}: подтверждение адреса e-mail`,
    verifyHtml: (name, code, minutes) =>
      `<p>Здравствуйте! Вы подтверждаете адрес e-mail для ${name}.</p><p>Ваш код подтверждения: <strong>${code}</strong></p><p>Код действует ${minutes} мин. Если это были не вы, просто проигнорируйте это письмо.</p>`,
    resetSubject: (name) => `${name}: сброс пароля`,
    resetHtml: (name, href, minutes) =>
      `<p>Здравствуйте! Вы запросили сброс пароля для ${name}.</p><p>Чтобы сбросить пароль, откройте ссылку: <a href="${href}">${href}</a></p><p>Если ссылка не открывается, скопируйте её в браузер. Она действует ${minutes} мин и срабатывает один раз. Если это были не вы, просто проигнорируйте это письмо.</p>`,
  },
  vi: {
    verifySubject: (name) => `${name}: xác minh địa chỉ email`,
    verifyHtml: (name, code, minutes) =>
      `<p>Xin chào, bạn đang xác minh địa chỉ email cho ${name}.</p><p>Mã xác minh của bạn là: <strong>${code}</strong></p><p>Mã có hiệu lực trong ${minutes} phút. Nếu không phải bạn thực hiện, hãy bỏ qua email này.</p>`,
    resetSubject: (name) => `${name}: đặt lại mật khẩu`,
    resetHtml: (name, href, minutes) =>
      `<p>Xin chào, bạn đã yêu cầu đặt lại mật khẩu ${name}.</p><p>Mở liên kết sau để đặt lại: <a href="${href}">${href}</a></p><p>Nếu không nhấn được liên kết, hãy sao chép nó vào trình duyệt. Liên kết có hiệu lực trong ${minutes} phút và chỉ dùng được một lần. Nếu không phải bạn thực hiện, hãy bỏ qua email này.</p>`,
  },
};

export function verificationMail(
  options: OptionsStore,
  code: string,
  lang: Language,
): { subject: string; html: string } {
  const texts = MAIL_TEXTS[lang];
  return {
    subject: texts.verifySubject(systemName(options)),
    html: texts.verifyHtml(escapeHtml(systemName(options)), code, VERIFICATION_VALID_MINUTES),
  };
}

export function resetMail(options: OptionsStore, link: string, lang: Language): { subject: string; html: string } {
  const texts = MAIL_TEXTS[lang];
  return {
    subject: texts.resetSubject(systemName(options)),
    html: texts.resetHtml(escapeHtml(systemName(options)), escapeHtml(link), VERIFICATION_VALID_MINUTES),
  };
}
