import { ChannelStatus } from '@gateway/shared';
import type { Db } from '../connection.js';
import type { AbilityRow, ChannelRow } from '../schema.js';
import { sqlOf, type Trx } from '../unit-of-work.js';

const splitList = (text: string | null) => [
  ...new Set(
    (text ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  ),
];

/** One ability per group × model of a channel: the index the relay selects channels from. */
export function abilitiesOf(channel: ChannelRow): AbilityRow[] {
  const rows: AbilityRow[] = [];
  for (const group of splitList(channel.group)) {
    for (const model of splitList(channel.models)) {
      rows.push({
        group,
        model,
        channel_id: channel.id,
        enabled: channel.status === ChannelStatus.Enabled ? 1 : 0,
        priority: channel.priority,
        weight: channel.weight,
        tag: channel.tag,
      });
    }
  }
  return rows;
}

export function createAbilitiesRepo(db: Db) {
  return {
    /** Replaces a channel's abilities; pass the transaction so the channel row and its abilities change together. */
    async replaceForChannel(trx: Trx, channel: ChannelRow): Promise<number> {
      await sqlOf(trx).deleteFrom('abilities').where('channel_id', '=', channel.id).execute();
      const rows = abilitiesOf(channel);
      // Chunked so a channel with thousands of models stays under every driver's parameter limit.
      for (let start = 0; start < rows.length; start += 200) {
        await sqlOf(trx)
          .insertInto('abilities')
          .values(rows.slice(start, start + 200))
          .execute();
      }
      return rows.length;
    },
    /** Distinct enabled models across the given groups: what a user of those groups can call. */
    async enabledModels(groups: string[]): Promise<string[]> {
      if (groups.length === 0) return [];
      const rows = await db.kysely
        .selectFrom('abilities')
        .select('model')
        .distinct()
        .where('enabled', '=', 1)
        .where('group', 'in', groups)
        .orderBy('model')
        .execute();
      return rows.map((row) => row.model);
    },
    async forChannel(channelId: number): Promise<AbilityRow[]> {
      return db.kysely
        .selectFrom('abilities')
        .selectAll()
        .where('channel_id', '=', channelId)
        .orderBy('group')
        .orderBy('model')
        .execute();
    },
    /** Empties the index, in the transaction that rebuilds it from the channels. */
    async deleteAll(trx: Trx): Promise<void> {
      await sqlOf(trx).deleteFrom('abilities').execute();
    },
    async deleteForChannel(trx: Trx, channelId: number): Promise<void> {
      await sqlOf(trx).deleteFrom('abilities').where('channel_id', '=', channelId).execute();
    },
  };
}

export type AbilitiesRepo = ReturnType<typeof createAbilitiesRepo>;
