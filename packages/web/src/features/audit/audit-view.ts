import dayjs from 'dayjs';
import type { QueryValue } from '../../lib/api';
import type { AuditFilters } from './types';

/** What the server writes in place of a secret's value. */
export const AUDIT_MASK = '***';

type Area = 'user' | 'channel' | 'option' | 'redemption' | 'log' | 'custom_oauth';

const AREA_COLORS: Record<Area, string> = {
  user: 'blue',
  channel: 'purple',
  option: 'orange',
  redemption: 'cyan',
  log: 'default',
  custom_oauth: 'geekblue',
};

/** Every action the server records, in the order the action filter lists them. */
export const AUDIT_ACTIONS = [
  'user.login',
  'user.login_failed',
  'user.create',
  'user.update',
  'user.promote',
  'user.demote',
  'user.enable',
  'user.disable',
  'user.delete',
  'user.add_quota',
  'channel.create',
  'channel.copy',
  'channel.update',
  'channel.status',
  'channel.delete',
  'channel.batch_delete',
  'channel.delete_disabled',
  'channel.batch_tag',
  'channel.tag_update',
  'channel.tag_enable',
  'channel.tag_disable',
  'channel.fix',
  'option.update',
  'option.reset_model_ratio',
  'option.sync_prices',
  'redemption.create',
  'redemption.update',
  'redemption.status',
  'redemption.delete',
  'log.clear',
  'custom_oauth.create',
  'custom_oauth.update',
  'custom_oauth.delete',
] as const;

export const AUDIT_TARGET_TYPES: Area[] = ['user', 'channel', 'option', 'redemption', 'log', 'custom_oauth'];

/** The translation key of an action; an action this console does not know yet is shown as it is. */
export function actionLabelKey(action: string): string | null {
  return (AUDIT_ACTIONS as readonly string[]).includes(action) ? `audit.actions.${action.replace('.', '_')}` : null;
}

export function actionColor(action: string): string {
  if (action === 'user.login_failed') return 'red';
  const area = action.split('.')[0] as Area;
  return AREA_COLORS[area] ?? 'default';
}

export function emptyAuditFilters(): AuditFilters {
  return { action: '', actor: '', targetType: '', start: 0, end: 0 };
}

/** Filters as `GET /api/audit/` takes them; unset ones are left out. */
export function auditFilterQuery(filters: AuditFilters): Record<string, QueryValue> {
  return {
    action: filters.action || undefined,
    actor: filters.actor.trim() || undefined,
    target_type: filters.targetType || undefined,
    start_timestamp: filters.start || undefined,
    end_timestamp: filters.end || undefined,
  };
}

export type DiffValue = { kind: 'empty' } | { kind: 'masked' } | { kind: 'text'; text: string };

/** How one side of a change reads: nothing, a hidden secret, or its text (objects as JSON). */
export function describeValue(value: unknown): DiffValue {
  if (value === null || value === undefined || value === '') return { kind: 'empty' };
  if (value === AUDIT_MASK) return { kind: 'masked' };
  return { kind: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) };
}

export function formatAuditTime(seconds: number): string {
  return dayjs.unix(seconds).format('YYYY-MM-DD HH:mm:ss');
}
