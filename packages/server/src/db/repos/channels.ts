import type { Updateable } from 'kysely';
import type { Db } from '../connection.js';
import type { ChannelRow, ChannelsTable, NewChannel } from '../schema.js';
import { insertReturningId, nowSeconds } from '../sql-helpers.js';

export function createChannelsRepo(db: Db) {
  const q = db.kysely;
  return {
    async insert(channel: NewChannel): Promise<number> {
      return insertReturningId(q, db.dialect, 'channels', { created_time: nowSeconds(), ...channel });
    },
    async findById(id: number): Promise<ChannelRow | undefined> {
      return q.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async all(): Promise<ChannelRow[]> {
      return q.selectFrom('channels').selectAll().orderBy('id').execute();
    },
    async update(id: number, changes: Updateable<ChannelsTable>): Promise<void> {
      await q.updateTable('channels').set(changes).where('id', '=', id).execute();
    },
    async delete(id: number): Promise<void> {
      await q.deleteFrom('channels').where('id', '=', id).execute();
    },
  };
}

export type ChannelsRepo = ReturnType<typeof createChannelsRepo>;
