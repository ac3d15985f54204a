import type { ChannelRow } from '../../db/schema.js';
import type { ChannelWriter } from '../../services/channels/channel-writer.js';
import type { RuntimeChannel } from '../types.js';

export function runtimeChannel(row: ChannelRow, writer: ChannelWriter): RuntimeChannel {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    baseUrl: row.base_url ?? '',
    // Several keys in one field (one per line) is the family's multi-key form; a test uses the first.
    key: writer.key(row).split('\n')[0]!.trim(),
    other: row.other ?? '',
    organization: row.openai_organization,
  };
}
