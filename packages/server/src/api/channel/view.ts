import type { ChannelRow } from '../../db/schema.js';

/** What the console sees of a channel: every field except the key, which never leaves the server. */
export function channelView(channel: ChannelRow) {
  const { key: _key, ...rest } = channel;
  return { ...rest, key: '' };
}
