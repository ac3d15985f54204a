import { LogType } from '@gateway/shared';
import dayjs from 'dayjs';
import type { QueryValue } from '../../lib/api';
import type { LogFilters, LogItem, LogOther } from './types';

/** Spec 001 §9: call duration up to 101 s is fine, up to 300 s slow, beyond that very slow. */
export const DURATION_THRESHOLDS = { fine: 101, slow: 300 } as const;
/** Spec 001 §9: first token within 3 s is fine, within 10 s slow (values here in seconds). */
export const FIRST_TOKEN_THRESHOLDS = { fine: 3, slow: 10 } as const;

export type ThresholdColor = 'green' | 'orange' | 'red';

function byThresholds(value: number, { fine, slow }: { fine: number; slow: number }): ThresholdColor {
  if (value <= fine) return 'green';
  if (value <= slow) return 'orange';
  return 'red';
}

export const durationColor = (seconds: number) => byThresholds(seconds, DURATION_THRESHOLDS);
export const firstTokenColor = (ms: number) => byThresholds(ms / 1000, FIRST_TOKEN_THRESHOLDS);

/** Tag colour and label of each log type; anything unexpected reads as unknown. */
export const LOG_TYPES: Record<number, { color: string; labelKey: string }> = {
  [LogType.Unknown]: { color: 'default', labelKey: 'log.type_unknown' },
  [LogType.TopUp]: { color: 'cyan', labelKey: 'log.type_topup' },
  [LogType.Consume]: { color: 'green', labelKey: 'log.type_consume' },
  [LogType.Manage]: { color: 'orange', labelKey: 'log.type_manage' },
  [LogType.System]: { color: 'purple', labelKey: 'log.type_system' },
  [LogType.Error]: { color: 'red', labelKey: 'log.type_error' },
};

export const FILTERABLE_TYPES = [
  LogType.TopUp,
  LogType.Consume,
  LogType.Manage,
  LogType.System,
  LogType.Error,
] as const;

export function logTypeInfo(type: number) {
  return LOG_TYPES[type] ?? LOG_TYPES[LogType.Unknown]!;
}

/** Model calls (billed or failed) have tokens, timings and a model; top-ups and admin notes do not. */
export function isCallLog(log: Pick<LogItem, 'type'>): boolean {
  return log.type === LogType.Consume || log.type === LogType.Error;
}

export function parseOther(text: string | null | undefined): LogOther {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as LogOther) : {};
  } catch {
    return {};
  }
}

/** The upstream model when a channel mapped the requested one to another name, else null. */
export function mappedModel(log: Pick<LogItem, 'model_name'>, other: LogOther): string | null {
  const upstream = other.upstream_model_name;
  if (!other.is_model_mapped || !upstream || upstream === log.model_name) return null;
  return upstream;
}

/** Channel ids tried for the call, in order; a chain only when the call was retried on another channel. */
export function retryChain(other: LogOther): string[] | null {
  const tried = other.admin_info?.use_channel;
  if (!Array.isArray(tried) || tried.length < 2) return null;
  return tried.map(String);
}

/** The models a fallback tried, in order (the requested one first), or null when no fallback happened. */
export function fallbackChain(other: LogOther): string[] | null {
  const chain = other.fallback_chain;
  if (!Array.isArray(chain) || chain.length === 0) return null;
  return chain.map(String);
}

/** First-token time in ms, or null when unknown (absent, -1, or not a number). */
export function firstTokenMs(other: LogOther): number | null {
  const frt = other.frt;
  return typeof frt === 'number' && Number.isFinite(frt) && frt >= 0 ? frt : null;
}

export function formatLogTime(seconds: number): string {
  return dayjs.unix(seconds).format('YYYY-MM-DD HH:mm:ss');
}

/** Default time window: from the start of today to an hour from now, so calls made while the page is open show. */
export function defaultRange(now = dayjs()): [dayjs.Dayjs, dayjs.Dayjs] {
  return [now.startOf('day'), now.add(1, 'hour')];
}

export function emptyFilters(now = dayjs()): LogFilters {
  const [start, end] = defaultRange(now);
  return {
    type: 0,
    tokenName: '',
    modelName: '',
    group: '',
    start: start.unix(),
    end: end.unix(),
    username: '',
    channel: '',
  };
}

/** Filters as the log and stat endpoints take them; unset filters are left out, admin-only ones for users too. */
export function filterQuery(filters: LogFilters, admin: boolean): Record<string, QueryValue> {
  const text = (value: string) => value.trim() || undefined;
  return {
    type: filters.type || undefined,
    token_name: text(filters.tokenName),
    model_name: text(filters.modelName),
    group: text(filters.group),
    start_timestamp: filters.start || undefined,
    end_timestamp: filters.end || undefined,
    ...(admin ? { username: text(filters.username), channel: text(filters.channel) } : {}),
  };
}
