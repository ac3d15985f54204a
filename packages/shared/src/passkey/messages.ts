import type { Language } from '../languages.js';

/** Server texts of passkey (WebAuthn) sign-in and management, spread into the server's message catalogue. */
export const PASSKEY_MESSAGES = {
  passkey_disabled: { zh: '管理员未启用 Passkey 登录', en: 'Passkey sign-in is not enabled by the administrator' },
  passkey_not_registered: { zh: '该用户尚未绑定 Passkey', en: 'This user has no passkey yet' },
  passkey_not_found: { zh: '该 Passkey 不存在', en: 'This passkey does not exist' },
  passkey_challenge_expired: {
    zh: 'Passkey 请求已过期或已使用，请重试',
    en: 'The passkey request has expired or was already used, please try again',
  },
  passkey_verification_failed: {
    zh: 'Passkey 验证失败，请重试或联系管理员',
    en: 'The passkey could not be verified, please retry or contact the administrator',
  },
  passkey_insecure_origin: {
    zh: 'Passkey 需要 HTTPS 来源（或由管理员允许不安全来源）',
    en: 'Passkeys need an HTTPS origin (or the administrator must allow insecure origins)',
  },
  passkey_registered: { zh: 'Passkey 注册成功', en: 'Passkey registered' },
  passkey_removed: { zh: 'Passkey 已解绑', en: 'Passkey removed' },
  passkey_renamed: { zh: 'Passkey 已重命名', en: 'Passkey renamed' },
  passkey_reset: { zh: 'Passkey 已重置', en: 'Passkeys reset' },
  passkey_verified: { zh: 'Passkey 验证成功', en: 'Passkey verified' },
  passkey_name_invalid: { zh: '名称须为 1 到 64 个字符', en: 'The name must be 1 to 64 characters' },
} as const satisfies Record<string, { zh: string; en: string }>;

type PasskeyCode = keyof typeof PASSKEY_MESSAGES;

/** The same texts in the console's other languages (spread into messages/<lang>.ts). */
export const PASSKEY_TRANSLATIONS: Record<Exclude<Language, 'zh' | 'en'>, Record<PasskeyCode, string>> = {
  'zh-TW': {
    passkey_disabled: '管理員未啟用 Passkey 登入',
    passkey_not_registered: '該使用者尚未綁定 Passkey',
    passkey_not_found: '該 Passkey 不存在',
    passkey_challenge_expired: 'Passkey 請求已過期或已使用，請重試',
    passkey_verification_failed: 'Passkey 驗證失敗，請重試或聯絡管理員',
    passkey_insecure_origin: 'Passkey 需要 HTTPS 來源（或由管理員允許不安全來源）',
    passkey_registered: 'Passkey 註冊成功',
    passkey_removed: 'Passkey 已解綁',
    passkey_renamed: 'Passkey 已重新命名',
    passkey_reset: 'Passkey 已重設',
    passkey_verified: 'Passkey 驗證成功',
    passkey_name_invalid: '名稱須為 1 到 64 個字元',
  },
  ja: {
    passkey_disabled: '管理者がパスキーでのログインを有効にしていません',
    passkey_not_registered: 'このユーザーにはまだパスキーがありません',
    passkey_not_found: 'このパスキーは存在しません',
    passkey_challenge_expired: 'パスキーの要求は期限切れか使用済みです。もう一度お試しください',
    passkey_verification_failed: 'パスキーを検証できませんでした。再試行するか管理者に連絡してください',
    passkey_insecure_origin: 'パスキーには HTTPS のオリジンが必要です（または管理者が非安全なオリジンを許可）',
    passkey_registered: 'パスキーを登録しました',
    passkey_removed: 'パスキーを削除しました',
    passkey_renamed: 'パスキーの名前を変更しました',
    passkey_reset: 'パスキーをリセットしました',
    passkey_verified: 'パスキーを確認しました',
    passkey_name_invalid: '名前は 1〜64 文字で入力してください',
  },
  fr: {
    passkey_disabled: 'La connexion par clé d’accès n’est pas activée par l’administrateur',
    passkey_not_registered: 'Cet utilisateur n’a pas encore de clé d’accès',
    passkey_not_found: 'Cette clé d’accès n’existe pas',
    passkey_challenge_expired: 'La demande de clé d’accès a expiré ou a déjà servi, veuillez réessayer',
    passkey_verification_failed: 'La clé d’accès n’a pas pu être vérifiée, réessayez ou contactez l’administrateur',
    passkey_insecure_origin:
      'Les clés d’accès exigent une origine HTTPS (ou l’administrateur doit autoriser les origines non sécurisées)',
    passkey_registered: 'Clé d’accès enregistrée',
    passkey_removed: 'Clé d’accès supprimée',
    passkey_renamed: 'Clé d’accès renommée',
    passkey_reset: 'Clés d’accès réinitialisées',
    passkey_verified: 'Clé d’accès vérifiée',
    passkey_name_invalid: 'Le nom doit compter de 1 à 64 caractères',
  },
  ru: {
    passkey_disabled: 'Вход по ключу доступа не включён администратором',
    passkey_not_registered: 'У этого пользователя ещё нет ключа доступа',
    passkey_not_found: 'Такого ключа доступа нет',
    passkey_challenge_expired: 'Запрос ключа доступа истёк или уже использован, попробуйте снова',
    passkey_verification_failed: 'Не удалось проверить ключ доступа, повторите или обратитесь к администратору',
    passkey_insecure_origin: 'Ключам доступа нужен HTTPS-источник (или администратор должен разрешить небезопасные)',
    passkey_registered: 'Ключ доступа зарегистрирован',
    passkey_removed: 'Ключ доступа удалён',
    passkey_renamed: 'Ключ доступа переименован',
    passkey_reset: 'Ключи доступа сброшены',
    passkey_verified: 'Ключ доступа подтверждён',
    passkey_name_invalid: 'Название должно содержать от 1 до 64 символов',
  },
  vi: {
    passkey_disabled: 'Quản trị viên chưa bật đăng nhập bằng passkey',
    passkey_not_registered: 'Người dùng này chưa có passkey',
    passkey_not_found: 'Passkey này không tồn tại',
    passkey_challenge_expired: 'Yêu cầu passkey đã hết hạn hoặc đã được dùng, vui lòng thử lại',
    passkey_verification_failed: 'Không xác minh được passkey, hãy thử lại hoặc liên hệ quản trị viên',
    passkey_insecure_origin: 'Passkey cần nguồn HTTPS (hoặc quản trị viên phải cho phép nguồn không an toàn)',
    passkey_registered: 'Đã đăng ký passkey',
    passkey_removed: 'Đã xóa passkey',
    passkey_renamed: 'Đã đổi tên passkey',
    passkey_reset: 'Đã đặt lại passkey',
    passkey_verified: 'Đã xác minh passkey',
    passkey_name_invalid: 'Tên phải dài từ 1 đến 64 ký tự',
  },
};
