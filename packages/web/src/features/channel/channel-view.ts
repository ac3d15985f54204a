import { parseSettingsJson, type UpstreamModelWatch, upstreamModelWatch } from '@gateway/shared';
import type { Channel } from './types';

/** The upstream-model watch of a channel, read from its settings JSON (the list's tag and the modal share it). */
export function channelWatch(channel: Pick<Channel, 'settings'>): UpstreamModelWatch {
  return upstreamModelWatch(parseSettingsJson(channel.settings));
}

/** A row of the channel table: a channel, or (in tag mode) a tag holding its channels as children. */
export type ChannelRow =
  | { kind: 'channel'; key: string; channel: Channel }
  | { kind: 'tag'; key: string; tag: string; channels: Channel[]; children: ChannelRow[] };

/**
 * Tag mode: channels with the same non-empty tag fold under one tag row, placed where the tag first appears;
 * untagged channels stay rows of their own. The server pages by these rows, so one page may hold many channels.
 */
export function buildChannelRows(channels: readonly Channel[], tagMode: boolean): ChannelRow[] {
  const single = (channel: Channel): ChannelRow => ({ kind: 'channel', key: `c${channel.id}`, channel });
  if (!tagMode) return channels.map(single);
  const rows: ChannelRow[] = [];
  const byTag = new Map<string, Extract<ChannelRow, { kind: 'tag' }>>();
  for (const channel of channels) {
    const tag = channel.tag?.trim() ?? '';
    if (!tag) {
      rows.push(single(channel));
      continue;
    }
    let row = byTag.get(tag);
    if (!row) {
      row = { kind: 'tag', key: `t:${tag}`, tag, channels: [], children: [] };
      byTag.set(tag, row);
      rows.push(row);
    }
    row.channels.push(channel);
    row.children.push(single(channel));
  }
  return rows;
}

export type LatencyColor = 'green' | 'lime' | 'yellow' | 'red';

/** Response-time colours (spec): up to 1 s green, up to 3 s lime, up to 5 s yellow, slower red. */
export function latencyColor(milliseconds: number): LatencyColor {
  if (milliseconds <= 1000) return 'green';
  if (milliseconds <= 3000) return 'lime';
  if (milliseconds <= 5000) return 'yellow';
  return 'red';
}

/** other_info as an object; tolerant of missing or broken JSON (an older server, a hand-edited row). */
function otherInfo(channel: Pick<Channel, 'other_info'>): Record<string, unknown> {
  try {
    const info: unknown = JSON.parse(channel.other_info ?? '');
    return typeof info === 'object' && info !== null && !Array.isArray(info) ? (info as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A reason and a time (Unix seconds) read from two keys of other_info; '' and 0 when absent. */
function reasonAndTime(
  channel: Pick<Channel, 'other_info'>,
  reasonKey: string,
  timeKey: string,
): { reason: string; time: number } {
  const info = otherInfo(channel);
  return {
    reason: typeof info[reasonKey] === 'string' ? info[reasonKey] : '',
    time: typeof info[timeKey] === 'number' ? info[timeKey] : 0,
  };
}

/** Why and when the server disabled a channel by itself (status 3). */
export function autoDisableInfo(channel: Pick<Channel, 'other_info'>): { reason: string; time: number } {
  return reasonAndTime(channel, 'status_reason', 'status_time');
}

/**
 * Why and when the channel's last test failed, as the server stored it (a passing test removes it): the page's own
 * memory of a failure is lost on reload, this is not.
 */
export function testFailureInfo(channel: Pick<Channel, 'other_info'>): { reason: string; time: number } {
  return reasonAndTime(channel, 'test_failure_reason', 'test_failure_time');
}

/** Comma text → list, for models and groups. */
export function commaList(text: string | null | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}
