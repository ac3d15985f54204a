import type { UserRow } from '../../db/schema.js';

export interface UserSetting {
  notify_type?: string;
  quota_warning_threshold?: number;
  webhook_url?: string;
  webhook_secret?: string;
  notification_email?: string;
  accept_unset_model_ratio_model?: boolean;
  record_ip_log?: boolean;
  /** Which balance pays first: subscription_first (default), wallet_first, subscription_only, wallet_only. */
  billing_preference?: string;
}

const parsed = new WeakMap<UserRow, UserSetting>();

/** The user's setting JSON, parsed once per cached user row. */
export function userSetting(user: UserRow): UserSetting {
  let setting = parsed.get(user);
  if (!setting) {
    try {
      const value = JSON.parse(user.setting ?? '{}');
      setting = typeof value === 'object' && value !== null ? (value as UserSetting) : {};
    } catch {
      setting = {};
    }
    parsed.set(user, setting);
  }
  return setting;
}
