import type { Language } from '../languages.js';

/** Server texts of the custom OAuth / OIDC providers, spread into the server's message catalogue. */
export const CUSTOM_OAUTH_MESSAGES = {
  custom_oauth_not_found: { zh: '未找到该 OAuth 提供商', en: 'This OAuth provider does not exist' },
  custom_oauth_name_required: { zh: '请填写提供商名称', en: 'Enter the provider’s name' },
  custom_oauth_slug_invalid: {
    zh: 'Slug 只能包含小写字母、数字和连字符（1 到 64 个字符）',
    en: 'The slug may only hold lowercase letters, digits and hyphens (1 to 64 characters)',
  },
  custom_oauth_slug_taken: { zh: '该 Slug 已被使用', en: 'This slug is already in use' },
  custom_oauth_slug_reserved: {
    zh: '该 Slug 与内置 OAuth 提供商冲突',
    en: 'This slug is taken by a built-in sign-in provider',
  },
  custom_oauth_field_required: { zh: '请填写 {field}', en: 'Enter the {field}' },
  custom_oauth_url_invalid: {
    zh: '{field} 必须是 http:// 或 https:// 开头的地址',
    en: 'The {field} must be an http:// or https:// address',
  },
  custom_oauth_still_bound: {
    zh: '该 OAuth 提供商还有用户绑定，无法删除。请先解除所有用户绑定。',
    en: 'Users are still bound to this OAuth provider; unbind them all before deleting it.',
  },
  custom_oauth_claim_missing: {
    zh: '用户信息中没有 {field}（{path}）',
    en: 'The user information has no {field} ({path})',
  },
  custom_oauth_not_bound: { zh: '未绑定该 OAuth 提供商', en: 'This account is not bound to that OAuth provider' },
  custom_oauth_saved: { zh: '保存成功', en: 'Saved' },
  custom_oauth_deleted: { zh: '删除成功', en: 'Deleted' },
  custom_oauth_unbound: { zh: '解绑成功', en: 'Unbound' },
} as const satisfies Record<string, { zh: string; en: string }>;

type CustomOAuthCode = keyof typeof CUSTOM_OAUTH_MESSAGES;

/** The same texts in the console's other languages (spread into messages/<lang>.ts). */
export const CUSTOM_OAUTH_TRANSLATIONS: Record<Exclude<Language, 'zh' | 'en'>, Record<CustomOAuthCode, string>> = {
  'zh-TW': {
    custom_oauth_not_found: '找不到該 OAuth 提供者',
    custom_oauth_name_required: '請填寫提供者名稱',
    custom_oauth_slug_invalid: 'Slug 只能包含小寫字母、數字和連字號（1 到 64 個字元）',
    custom_oauth_slug_taken: '該 Slug 已被使用',
    custom_oauth_slug_reserved: '該 Slug 與內建 OAuth 提供者衝突',
    custom_oauth_field_required: '請填寫 {field}',
    custom_oauth_url_invalid: '{field} 必須是 http:// 或 https:// 開頭的位址',
    custom_oauth_still_bound: '該 OAuth 提供者仍有使用者綁定，無法刪除。請先解除所有使用者綁定。',
    custom_oauth_claim_missing: '使用者資訊中沒有 {field}（{path}）',
    custom_oauth_not_bound: '尚未綁定該 OAuth 提供者',
    custom_oauth_saved: '儲存成功',
    custom_oauth_deleted: '刪除成功',
    custom_oauth_unbound: '解綁成功',
  },
  ja: {
    custom_oauth_not_found: 'この OAuth プロバイダーは存在しません',
    custom_oauth_name_required: 'プロバイダー名を入力してください',
    custom_oauth_slug_invalid: 'スラッグには英小文字・数字・ハイフンのみ使えます（1〜64 文字）',
    custom_oauth_slug_taken: 'このスラッグは既に使われています',
    custom_oauth_slug_reserved: 'このスラッグは組み込みのログイン方法と重複しています',
    custom_oauth_field_required: '{field} を入力してください',
    custom_oauth_url_invalid: '{field} は http:// または https:// で始まるアドレスにしてください',
    custom_oauth_still_bound:
      'この OAuth プロバイダーに連携中のユーザーがいるため削除できません。先にすべての連携を解除してください。',
    custom_oauth_claim_missing: 'ユーザー情報に {field}（{path}）がありません',
    custom_oauth_not_bound: 'このアカウントはその OAuth プロバイダーと連携していません',
    custom_oauth_saved: '保存しました',
    custom_oauth_deleted: '削除しました',
    custom_oauth_unbound: '連携を解除しました',
  },
  fr: {
    custom_oauth_not_found: 'Ce fournisseur OAuth n’existe pas',
    custom_oauth_name_required: 'Saisissez le nom du fournisseur',
    custom_oauth_slug_invalid:
      'Le slug ne peut contenir que des minuscules, des chiffres et des tirets (1 à 64 caractères)',
    custom_oauth_slug_taken: 'Ce slug est déjà utilisé',
    custom_oauth_slug_reserved: 'Ce slug est pris par un fournisseur de connexion intégré',
    custom_oauth_field_required: 'Saisissez {field}',
    custom_oauth_url_invalid: '{field} doit être une adresse http:// ou https://',
    custom_oauth_still_bound:
      'Des utilisateurs sont encore liés à ce fournisseur OAuth ; déliez-les tous avant de le supprimer.',
    custom_oauth_claim_missing: 'Les informations de l’utilisateur n’ont pas de {field} ({path})',
    custom_oauth_not_bound: 'Ce compte n’est pas lié à ce fournisseur OAuth',
    custom_oauth_saved: 'Enregistré',
    custom_oauth_deleted: 'Supprimé',
    custom_oauth_unbound: 'Liaison supprimée',
  },
  ru: {
    custom_oauth_not_found: 'Такого OAuth-провайдера нет',
    custom_oauth_name_required: 'Укажите название провайдера',
    custom_oauth_slug_invalid: 'Slug может содержать только строчные буквы, цифры и дефисы (от 1 до 64 символов)',
    custom_oauth_slug_taken: 'Этот slug уже занят',
    custom_oauth_slug_reserved: 'Этот slug занят встроенным способом входа',
    custom_oauth_field_required: 'Укажите {field}',
    custom_oauth_url_invalid: '{field} должен быть адресом http:// или https://',
    custom_oauth_still_bound:
      'К этому OAuth-провайдеру ещё привязаны пользователи; сначала отвяжите их всех, затем удаляйте.',
    custom_oauth_claim_missing: 'В данных пользователя нет поля {field} ({path})',
    custom_oauth_not_bound: 'Этот аккаунт не привязан к этому OAuth-провайдеру',
    custom_oauth_saved: 'Сохранено',
    custom_oauth_deleted: 'Удалено',
    custom_oauth_unbound: 'Привязка удалена',
  },
  vi: {
    custom_oauth_not_found: 'Nhà cung cấp OAuth này không tồn tại',
    custom_oauth_name_required: 'Hãy nhập tên nhà cung cấp',
    custom_oauth_slug_invalid: 'Slug chỉ gồm chữ thường, chữ số và dấu gạch ngang (1 đến 64 ký tự)',
    custom_oauth_slug_taken: 'Slug này đã được dùng',
    custom_oauth_slug_reserved: 'Slug này trùng với một phương thức đăng nhập có sẵn',
    custom_oauth_field_required: 'Hãy nhập {field}',
    custom_oauth_url_invalid: '{field} phải là địa chỉ http:// hoặc https://',
    custom_oauth_still_bound:
      'Vẫn còn người dùng liên kết với nhà cung cấp OAuth này; hãy hủy mọi liên kết trước khi xóa.',
    custom_oauth_claim_missing: 'Thông tin người dùng không có {field} ({path})',
    custom_oauth_not_bound: 'Tài khoản này chưa liên kết với nhà cung cấp OAuth đó',
    custom_oauth_saved: 'Đã lưu',
    custom_oauth_deleted: 'Đã xóa',
    custom_oauth_unbound: 'Đã hủy liên kết',
  },
};
