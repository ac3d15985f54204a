import type { Channel } from './types';

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

/** Why and when the server disabled a channel by itself (status 3); tolerant of missing or broken JSON. */
export function autoDisableInfo(channel: Pick<Channel, 'other_info'>): { reason: string; time: number } {
  try {
    const info = JSON.parse(channel.other_info ?? '') as { status_reason?: unknown; status_time?: unknown };
    return {
      reason: typeof info.status_reason === 'string' ? info.status_reason : '',
      time: typeof info.status_time === 'number' ? info.status_time : 0,
    };
  } catch {
    return { reason: '', time: 0 };
  }
}

/** Comma text → list, for models and groups. */
export function commaList(text: string | null | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}
