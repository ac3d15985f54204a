import { NOTIFY_TYPES, QUOTA_WARNING_PRESETS } from '@gateway/shared';

export type NotifyType = (typeof NOTIFY_TYPES)[number];

/** The user's `setting` JSON (spec 000 "User setting"), with the family's defaults for whatever is missing. */
export interface UserSetting {
  notify_type: NotifyType;
  quota_warning_threshold: number;
  webhook_url: string;
  webhook_secret: string;
  notification_email: string;
  accept_unset_model_ratio_model: boolean;
}

export const DEFAULT_USER_SETTING: UserSetting = {
  notify_type: 'email',
  quota_warning_threshold: QUOTA_WARNING_PRESETS[0],
  webhook_url: '',
  webhook_secret: '',
  notification_email: '',
  accept_unset_model_ratio_model: false,
};

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Reads the stored setting string; anything missing or unreadable falls back to the defaults. */
export function parseUserSetting(raw: string | null | undefined): UserSetting {
  let stored: Record<string, unknown> = {};
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) stored = parsed as Record<string, unknown>;
  } catch {
    stored = {};
  }
  const threshold = Number(stored.quota_warning_threshold);
  return {
    notify_type: (NOTIFY_TYPES as readonly unknown[]).includes(stored.notify_type)
      ? (stored.notify_type as NotifyType)
      : DEFAULT_USER_SETTING.notify_type,
    quota_warning_threshold:
      Number.isInteger(threshold) && threshold >= 0 ? threshold : DEFAULT_USER_SETTING.quota_warning_threshold,
    webhook_url: text(stored.webhook_url),
    webhook_secret: text(stored.webhook_secret),
    notification_email: text(stored.notification_email),
    accept_unset_model_ratio_model: stored.accept_unset_model_ratio_model === true,
  };
}

/** The family sends webhooks only over https (spec 000 §5). */
export function isHttpsUrl(url: string): boolean {
  return /^https:\/\/[^\s]+$/i.test(url.trim());
}
